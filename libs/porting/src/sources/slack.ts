import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ImportError } from '../loader.js';
import { DEFAULT_TOPIC, type FailedFetch, type ModelChannel, type ModelEmoji } from '../model.js';
import { readSlackEmoji, SlackCustomEmoji } from './slack-images.js';
import { convertSlackText, slackBlocksAndAttachments } from './slack-markup.js';
import { slackFiles, slackReactions, ThreadTopics } from './slack-message-parts.js';
import { readSlackUsers, senderOf, SlackAccounts } from './slack-users.js';
import {
  newChannel,
  participants,
  readJsonFile,
  subscription,
  type IdMaps,
  type MessageSink,
  type SourceOptions,
  type SourceReader,
  type SourceStructure,
} from './source.js';

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface SlackConversation extends Json {
  id: string;
  name?: string;
  members?: string[];
}

/** One directory of day files: a channel, a group DM (mpim) or a DM. */
interface Conversation {
  dir: string;
  channel?: { local: number; name: string };
  /** Slack ids of a DM's or group DM's members. */
  members?: string[];
}

/** Subtypes Zulip's importer leaves out: join and leave notices, renames, pins. */
const SKIPPED_SUBTYPES = new Set(['pinned_item', 'unpinned_item', 'channel_join', 'channel_leave', 'channel_name']);

/**
 * A Slack export (Zulip's zerver/data_import/slack.py): users.json (merged with users.list, which has the emails
 * exports often lack), channels.json and groups.json, mpims.json and dms.json, one directory of day files per
 * conversation; files Slack hosts are listed unless the export carries them in `__uploads/<file id>/<name>`. The
 * users' own pictures and the custom emoji of emoji.list (a second file, as users.list) are fetched by URL through
 * the guarded client; those that fail are listed in the summary.
 */
export class SlackReader implements SourceReader {
  private readonly accounts: SlackAccounts;
  private readonly conversations: Conversation[] = [];
  private readonly channelIds = new Map<string, string>();
  private readonly channelDirs = new Map<string, string>();
  private messageCount = 0;
  private customEmoji = new SlackCustomEmoji();

  constructor(private readonly options: SourceOptions) {
    this.accounts = new SlackAccounts(options.domain);
  }

  private path(name: string): string {
    return join(this.options.root, name);
  }

  private async optionalList<T>(name: string): Promise<T[]> {
    return existsSync(this.path(name)) ? readJsonFile<T[]>(this.path(name), name) : [];
  }

  private dayFiles(dir: string): string[] {
    const path = this.path(dir);
    if (!existsSync(path) || !statSync(path).isDirectory()) return [];
    return readdirSync(path)
      .filter((f) => f.endsWith('.json'))
      .sort();
  }

  async structure(): Promise<SourceStructure> {
    if (!existsSync(this.path('channels.json')))
      throw new ImportError('channels.json is missing: not the layout of a Slack export');
    const slackUsers = await readSlackUsers(this.path('users.json'), this.options.slackUsers);
    const publicChannels = await readJsonFile<SlackConversation[]>(this.path('channels.json'), 'channels.json');
    const privateChannels = await this.optionalList<SlackConversation>('groups.json');
    const mpims = await this.optionalList<SlackConversation>('mpims.json');
    const dms = await this.optionalList<SlackConversation>('dms.json');

    // The primary owner first, as Zulip's importer orders them.
    const ordered = [...slackUsers].sort(
      (a, b) => Number(b.is_primary_owner === true) - Number(a.is_primary_owner === true),
    );
    for (const user of ordered) {
      if (typeof user.id !== 'string') throw new ImportError('a user without an id', 'users.json');
      this.accounts.add(user);
    }

    // Senders the user lists lack: integration bots (messages with a bot_id only) and people of shared channels.
    const conversationsForScan = [
      ...publicChannels.map((c) => ({ dir: str(c.name), members: c.members ?? [] })),
      ...privateChannels.map((c) => ({ dir: str(c.name), members: c.members ?? [] })),
      ...mpims.map((c) => ({ dir: str(c.name), members: c.members ?? [] })),
      ...dms.map((c) => ({ dir: c.id, members: c.members ?? [] })),
    ];
    for (const { dir, members } of conversationsForScan) {
      for (const id of members) this.accounts.addMember(id);
      for (const file of this.dayFiles(dir)) {
        const messages = await readJsonFile<Json[]>(this.path(join(dir, file)), join(dir, file));
        if (!Array.isArray(messages)) throw new ImportError('expected a list of messages', join(dir, file));
        this.messageCount += messages.length;
        for (const message of messages) this.accounts.addSender(message);
      }
    }

    const channels: ModelChannel[] = [];
    const addChannels = (list: SlackConversation[], inviteOnly: boolean) => {
      for (const [index, c] of list.entries()) {
        const name = str(c.name);
        if (!name)
          throw new ImportError(`channel ${index + 1} has no name`, inviteOnly ? 'groups.json' : 'channels.json');
        const local = channels.length + 1;
        const members = [...new Set((c.members ?? []).map((m) => this.accounts.local.get(m)!))];
        const archived = c.is_archived === true;
        channels.push(
          newChannel({
            id: local,
            sourceId: c.id,
            name,
            description: str((c.purpose as Json | undefined)?.value),
            inviteOnly,
            archived,
            dateCreated: Number(c.created) || Date.now() / 1000,
            creatorId: typeof c.creator === 'string' ? (this.accounts.local.get(c.creator) ?? null) : null,
            // Zulip's importer makes #general and #random the default channels.
            isDefault: !archived && (name === 'general' || name === 'random'),
            subscribers: members.map((userId, i) => subscription(userId, i + local)),
          }),
        );
        this.channelIds.set(c.id, name);
        this.channelDirs.set(name, name);
        this.conversations.push({ dir: name, channel: { local, name } });
      }
    };
    addChannels(publicChannels, false);
    addChannels(privateChannels, true);
    for (const m of mpims) this.conversations.push({ dir: str(m.name), members: m.members ?? [] });
    for (const d of dms) this.conversations.push({ dir: d.id, members: d.members ?? [] });

    const { emoji, failedFetches } = await this.images();
    const general = channels.find((c) => c.name === 'general');
    return {
      realm: {
        source: 'slack',
        name: '',
        description: 'Organization imported from Slack!',
        dateCreated: Date.now() / 1000,
        settings: {},
        userSettingsDefaults: {},
        permissions: {},
        channelSettings: general
          ? { new_stream_announcements_stream: general.id, zulip_update_announcements_stream: general.id }
          : {},
        linkifiers: [],
        playgrounds: [],
      },
      users: this.accounts.users,
      profileFields: [],
      emoji,
      channels,
      groups: [],
      userTopics: [],
      failedFetches,
    };
  }

  /** The users' own pictures and the custom emoji of emoji.list, fetched (Zulip's process_avatars, process_emojis). */
  private async images(): Promise<{ emoji: ModelEmoji[]; failedFetches: FailedFetch[] }> {
    const remote = this.options.remote;
    const list = this.options.slackEmoji ? await readSlackEmoji(this.options.slackEmoji) : {};
    if (!remote) return { emoji: [], failedFetches: [] };
    const users = this.accounts.users.filter((u) => this.accounts.avatarUrls.has(u.id));
    const files = await remote.fetchAll(
      users.map((u) => ({
        what: `avatar of ${u.fullName} (${u.sourceId})`,
        url: this.accounts.avatarUrls.get(u.id)!,
        name: `avatars/${u.id}`,
      })),
    );
    for (const [i, user] of users.entries()) {
      if (files[i]) Object.assign(user, { avatarFile: files[i], avatarFetched: true });
    }
    this.customEmoji = await SlackCustomEmoji.fetch(list, remote);
    return { emoji: this.customEmoji.emoji, failedFetches: remote.failures };
  }

  /** How many messages the export has (known after `structure`), for the progress bar. */
  get total(): number {
    return this.messageCount;
  }

  async messages(ids: IdMaps, sink: MessageSink): Promise<void> {
    const byDay = new Map<string, Conversation[]>();
    for (const conversation of this.conversations)
      for (const file of this.dayFiles(conversation.dir)) byDay.set(file, [...(byDay.get(file) ?? []), conversation]);
    const threadTopics = new ThreadTopics();
    const user = (slackId: string) => ids.user(this.accounts.local.get(slackId)!);

    for (const day of [...byDay.keys()].sort()) {
      const batch: { message: Json; conversation: Conversation; ref: string }[] = [];
      for (const conversation of byDay.get(day)!) {
        const name = join(conversation.dir, day);
        const messages = await readJsonFile<Json[]>(this.path(name), name);
        for (const [i, message] of messages.entries()) {
          if (message.user === 'U00' || message.mimetype === 'application/vnd.slack-docs') continue;
          batch.push({ message, conversation, ref: `${name}, message ${i + 1}` });
        }
      }
      batch.sort((a, b) => Number(a.message.ts) - Number(b.message.ts));
      for (const { message, conversation, ref } of batch) {
        const sender = senderOf(message);
        if (!sender) continue;
        const subtype = str(message.subtype);
        if (SKIPPED_SUBTYPES.has(subtype)) continue;
        const ts = Number(message.ts);
        if (!Number.isFinite(ts)) throw new ImportError(`the timestamp '${str(message.ts)}' is not a number`, ref);
        const formatted = slackBlocksAndAttachments(message);
        const text = formatted !== '' ? formatted : str(message.text);
        const converted = convertSlackText(text, this.accounts.people, this.channelIds);
        let content = converted.content;
        if (subtype === 'bot_add' || subtype === 'sh_room_created' || subtype === 'me_message')
          content = `/me ${content}`;
        const senderId = user(
          subtype === 'file_comment' ? str((message.comment as Json | undefined)?.user) || sender : sender,
        );
        const { links, uploads } = await slackFiles(message, ref, senderId, this.options.root, sink);
        content = [content, ...links].filter((part) => part !== '').join('\n');
        const reactions = slackReactions(message, this.accounts.local, ids, (name) =>
          this.customEmoji.reaction(name, ids.emoji),
        );
        const edited = message.edited as Json | undefined;
        const base = {
          ref,
          senderId,
          content,
          dateSent: ts,
          ...(edited?.ts ? { lastEditTime: Number(edited.ts) } : {}),
          ...(reactions.length > 0 ? { reactions } : {}),
          ...(uploads.length > 0 ? { uploads } : {}),
        };
        if (conversation.channel) {
          let topic: string = DEFAULT_TOPIC.slack;
          if (typeof message.thread_ts === 'string') topic = threadTopics.of(message, content);
          await sink.message({ ...base, channelId: ids.channel(conversation.channel.local), topic });
        } else {
          const members = (conversation.members ?? []).map((m) => user(m));
          await sink.message({ ...base, dmUserIds: participants([...members, senderId]) });
        }
      }
    }
  }
}
