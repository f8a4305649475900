import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ImportError } from '../loader.js';
import { DEFAULT_TOPIC, type ModelChannel, type ModelEmoji, type ModelReaction, type ModelUser } from '../model.js';
import {
  newChannel,
  newUser,
  participants,
  subscription,
  unicodeEmoji,
  uploadLink,
  type IdMaps,
  type MessageSink,
  type SourceOptions,
  type SourceReader,
  type SourceStructure,
} from './source.js';

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = <T = Json>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

interface TeamMembership {
  name: string;
  roles?: string;
  channels?: { name: string; roles?: string }[] | null;
}

interface MattermostUser extends Json {
  username: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  teams?: TeamMembership[] | null;
}

/** A post or direct post, its replies flattened beside it. */
interface Post {
  ref: string;
  user: string;
  message: string;
  createAt: number;
  editAt: number;
  channel?: string;
  members?: string[];
  reactions: Json[];
  attachments: Json[];
}

const IMAGE = /\.(png|jpe?g|gif|bmp|webp|svg)$/i;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * A Mattermost bulk export (Zulip's zerver/data_import/mattermost.py): `export.json`, one JSON object a line, with
 * teams, channels, users, posts (replies inside them), direct channels and posts, custom emoji; attachments in
 * `data/` beside it. One team becomes the organization (`--team` when the export has several, as Zulip's
 * converter writes one organization per team).
 */
export class MattermostReader implements SourceReader {
  private readonly users: ModelUser[] = [];
  private readonly localUser = new Map<string, number>();
  private readonly fullNames = new Map<string, string>();
  private readonly channelIds = new Map<string, number>();
  private readonly posts: Post[] = [];
  private emojiIds = new Map<string, number>();
  private count = 0;
  private directSkipped = 0;

  constructor(private readonly options: SourceOptions) {}

  /** How many messages the export has (known after `structure`), for the progress bar. */
  get total(): number {
    return this.count;
  }

  private async rows(): Promise<{ type: string; value: Json; line: number }[]> {
    const file = join(this.options.root, 'export.json');
    if (!existsSync(file)) throw new ImportError('export.json is missing: not the layout of a Mattermost bulk export');
    const out: { type: string; value: Json; line: number }[] = [];
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let n = 0;
    for await (const text of lines) {
      n++;
      if (text.trim() === '') continue;
      let row: Json;
      try {
        row = JSON.parse(text) as Json;
      } catch (err) {
        throw new ImportError(`not valid JSON (${err instanceof Error ? err.message : String(err)}); is it truncated?`, `export.json line ${n}`);
      }
      const type = str(row.type);
      out.push({ type, value: (row[type] ?? {}) as Json, line: n });
    }
    return out;
  }

  async structure(): Promise<SourceStructure> {
    const rows = await this.rows();
    const teams = rows.filter((r) => r.type === 'team').map((r) => r.value);
    if (teams.length === 0) throw new ImportError('no team in the export', 'export.json');
    const team =
      this.options.team !== undefined ? teams.find((t) => t.name === this.options.team) : teams.length === 1 ? teams[0] : undefined;
    if (!team)
      throw new ImportError(
        this.options.team !== undefined
          ? `no team '${this.options.team}' (the export has ${teams.map((t) => str(t.name)).join(', ')})`
          : `the export has several teams (${teams.map((t) => str(t.name)).join(', ')}): choose one with --team`,
        'export.json',
      );
    const teamName = str(team.name);
    const oneTeam = teams.length === 1;

    const mmUsers = rows.filter((r) => r.type === 'user').map((r) => r.value as MattermostUser);
    const inTeam = (u: MattermostUser) => list<TeamMembership>(u.teams).some((t) => t.name === teamName);
    const posts = rows.filter((r) => r.type === 'post' && str(r.value.team) === teamName);
    const directPosts = oneTeam ? rows.filter((r) => r.type === 'direct_post') : [];
    if (!oneTeam) this.directSkipped = rows.filter((r) => r.type === 'direct_post').length;
    // Zulip's label_mirror_dummy_users: people who posted in the team without being in it.
    const posters = new Set([...posts, ...directPosts].map((r) => str(r.value.user)));
    for (const user of mmUsers) {
      if (!inTeam(user) && !posters.has(user.username)) continue;
      const id = this.users.length + 1;
      const membership = list<TeamMembership>(user.teams).find((t) => t.name === teamName);
      const roles = str(membership?.roles);
      const fullName = `${str(user.first_name)} ${str(user.last_name)}`.trim() || user.username;
      const mirrorDummy = !inTeam(user);
      const tz = (user.timezone ?? {}) as Json;
      const timezone = str(tz.useAutomaticTimezone) === 'false' ? str(tz.manualTimezone) : str(tz.automaticTimezone);
      const avatar = str(user.profile_image);
      this.users.push(
        newUser({
          id,
          sourceId: user.username,
          email: str(user.email) || `${user.username}@${this.options.domain}`,
          emailIsPlaceholder: !user.email,
          fullName,
          // Zulip's rule: team administrators own the organization.
          role: roles.includes('team_admin') ? 100 : roles.includes('team_guest') ? 600 : 400,
          isActive: !mirrorDummy && !(Number(user.delete_at) > 0),
          isMirrorDummy: mirrorDummy,
          timezone: timezone || 'UTC',
          avatarFile: avatar && existsSync(join(this.options.root, avatar)) ? avatar : null,
          // Zulip's Mattermost import gives every subscriber the messages' rows (no long-term idle users).
          longTermIdle: false,
        }),
      );
      this.localUser.set(user.username, id);
      this.fullNames.set(user.username, fullName);
    }

    const channels: ModelChannel[] = [];
    for (const { value: c, line } of rows.filter((r) => r.type === 'channel' && str(r.value.team) === teamName)) {
      const type = str(c.type);
      if (type !== 'O' && type !== 'P') throw new ImportError(`unexpected channel type '${type}'`, `export.json line ${line}`);
      const id = channels.length + 1;
      const members = mmUsers
        .filter((u) =>
          list<TeamMembership>(u.teams).some(
            (t) => t.name === teamName && list(t.channels).some((ch) => str(ch.name) === str(c.name) && /channel_(admin|user)/.test(str(ch.roles))),
          ),
        )
        .map((u) => this.localUser.get(u.username))
        .filter((v): v is number => v !== undefined);
      channels.push(
        newChannel({
          id,
          sourceId: str(c.name),
          name: str(c.display_name) || str(c.name),
          // Zulip's rule: the purpose, else the header.
          description: str(c.purpose) || str(c.header),
          inviteOnly: type === 'P',
          archived: Number(c.deleted_at) > 0,
          subscribers: [...new Set(members)].map((userId, i) => subscription(userId, i + id)),
        }),
      );
      this.channelIds.set(str(c.name), id);
    }

    const emoji: ModelEmoji[] = [];
    for (const { value: e } of rows.filter((r) => r.type === 'emoji')) {
      const id = emoji.length + 1;
      emoji.push({ id, name: str(e.name), authorId: null, file: str(e.image), deactivated: false });
      this.emojiIds.set(str(e.name), id);
    }

    const flatten = (row: { value: Json; line: number }, direct: boolean) => {
      const post = row.value;
      const base = {
        ...(direct ? { members: list<string>(post.channel_members) } : { channel: str(post.channel) }),
      };
      const make = (p: Json, ref: string): Post => ({
        ref,
        user: str(p.user),
        message: str(p.message),
        createAt: Number(p.create_at),
        editAt: Number(p.edit_at) || 0,
        reactions: list(p.reactions),
        attachments: list(p.attachments),
        ...base,
      });
      this.posts.push(make(post, `export.json line ${row.line}`));
      for (const [i, reply] of list(post.replies).entries()) this.posts.push(make(reply, `export.json line ${row.line}, reply ${i + 1}`));
    };
    for (const row of posts) flatten(row, false);
    for (const row of directPosts) flatten(row, true);
    // Ids follow the dates (Zulip's import sorts them by date too).
    this.posts.sort((a, b) => a.createAt - b.createAt);
    this.count = this.posts.length;

    return {
      realm: {
        source: 'mattermost',
        name: str(team.display_name),
        description: str(team.description) || 'Organization imported from Mattermost!',
        dateCreated: Date.now() / 1000,
        settings: {},
        userSettingsDefaults: {},
        permissions: {},
        channelSettings: {},
        linkifiers: [],
        playgrounds: [],
      },
      users: this.users,
      profileFields: [],
      emoji,
      channels,
      groups: [],
      userTopics: [],
    };
  }

  /** Zulip's fix_mentions: `@username` of known users becomes `@**Full Name**`; `@channel`, `@all`, `@here` `@**all**`. */
  private convert(message: string): string {
    let out = message.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
    out = out.replace(/(^|[^a-zA-Z0-9\-_.])@((?:[A-Za-z0-9]+[_.]?)+)/g, (match, before: string, name: string) => {
      if (name === 'channel' || name === 'all' || name === 'here') return `${before}@**all**`;
      const fullName = this.fullNames.get(name) ?? this.fullNames.get(name.replace(/[_.]$/, ''));
      return fullName === undefined ? match : `${before}@**${fullName}**`;
    });
    return out;
  }

  private reactions(post: Post, ids: IdMaps): ModelReaction[] {
    const out: ModelReaction[] = [];
    const seen = new Set<string>();
    for (const r of post.reactions) {
      const local = this.localUser.get(str(r.user));
      if (local === undefined) continue;
      const name = str(r.emoji_name);
      const unicode = unicodeEmoji(name);
      const custom = this.emojiIds.get(name);
      const reaction: ModelReaction | null = unicode
        ? { userId: ids.user(local), emojiName: unicode.name, emojiCode: unicode.code, reactionType: 'unicode_emoji' }
        : custom !== undefined
          ? { userId: ids.user(local), emojiName: name, emojiCode: String(ids.emoji(custom)), reactionType: 'realm_emoji' }
          : null;
      if (!reaction) continue;
      const key = `${reaction.userId}:${reaction.reactionType}:${reaction.emojiCode}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(reaction);
    }
    return out;
  }

  async messages(ids: IdMaps, sink: MessageSink): Promise<void> {
    if (this.directSkipped > 0)
      sink.note(`${this.directSkipped} direct messages left out: the export has several teams (Zulip's rule)`);
    for (const post of this.posts) {
      const local = this.localUser.get(post.user);
      if (local === undefined) throw new ImportError(`the sender '${post.user}' is not among the users`, post.ref);
      const senderId = ids.user(local);
      let content = this.convert(post.message);
      // Zulip skips messages longer than it accepts.
      if (content.length > 10_000) {
        sink.note(`${post.ref}: skipped, longer than 10,000 characters`);
        continue;
      }
      const uploads: number[] = [];
      const links: string[] = [];
      for (const attachment of post.attachments) {
        const path = str(attachment.path);
        const file = join('data', path);
        if (!path || !existsSync(join(this.options.root, file))) throw new ImportError(`the attachment '${path}' is missing`, post.ref);
        const name = basename(path);
        const { index, pathId } = await sink.upload({
          ownerId: senderId,
          fileName: name,
          file,
          size: statSync(join(this.options.root, file)).size,
          contentType: IMAGE.test(name) ? `image/${name.split('.').pop()!.toLowerCase().replace('jpg', 'jpeg')}` : 'application/octet-stream',
          createTime: post.createAt / 1000,
        });
        uploads.push(index);
        links.push(uploadLink(name, pathId));
      }
      if (links.length > 0) content = [content, ...links].filter((p) => p !== '').join('\n');
      const reactions = this.reactions(post, ids);
      const base = {
        ref: post.ref,
        senderId,
        content,
        dateSent: post.createAt / 1000,
        ...(post.editAt > post.createAt ? { lastEditTime: post.editAt / 1000 } : {}),
        ...(reactions.length > 0 ? { reactions } : {}),
        ...(uploads.length > 0 ? { uploads } : {}),
      };
      if (post.channel !== undefined) {
        const channel = this.channelIds.get(post.channel);
        if (channel === undefined) throw new ImportError(`no channel '${post.channel}' in the team`, post.ref);
        await sink.message({ ...base, channelId: ids.channel(channel), topic: DEFAULT_TOPIC.mattermost });
      } else {
        const members = (post.members ?? []).map((m) => this.localUser.get(m));
        if (members.some((m) => m === undefined)) throw new ImportError('a member of the conversation is not among the users', post.ref);
        await sink.message({ ...base, dmUserIds: participants([...members.map((m) => ids.user(m!)), senderId]) });
      }
    }
  }
}
