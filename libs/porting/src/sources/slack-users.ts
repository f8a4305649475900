import { createHash } from 'node:crypto';
import { ImportError } from '../loader.js';
import type { ModelUser } from '../model.js';
import { slackAvatarUrl } from './slack-images.js';
import type { SlackPerson } from './slack-markup.js';
import { newUser, readJsonFile } from './source.js';

/**
 * The people of a Slack export as Zulip's importer makes them (zerver/data_import/slack.py): users.json merged with
 * users.list, their names, addresses, roles and timezones, and accounts sharing an address merged into one.
 */

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface SlackUser extends Json {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  profile?: Json;
}

/** Zulip's get_user_full_name. */
function fullNameOf(user: SlackUser): string {
  if (user.deleted === false) return str(user.real_name) || str(user.name);
  if (user.is_mirror_dummy) return str(user.profile?.real_name) || str(user.name);
  return str(user.name) || str(user.real_name) || user.id;
}

/** Zulip's get_user_timezone: America/New_York when Slack has none (or no region). */
function timezoneOf(user: SlackUser): string {
  const tz = str(user.tz);
  return tz.includes('/') ? tz : 'America/New_York';
}

function isSlackbot(user: SlackUser): boolean {
  return fullNameOf(user).toLowerCase() === 'slackbot';
}

/** Who sent a message: its user, its file's, or its bot. */
export function senderOf(message: Json): string | null {
  if (typeof message.user === 'string') return message.user;
  const file = message.file as Json | undefined;
  if (file && typeof file.user === 'string') return file.user;
  if (typeof message.bot_id === 'string') return message.bot_id;
  return null;
}

/** Users of users.json (at `path`), with what users.list knows (emails) merged in, and users only users.list has. */
export async function readSlackUsers(path: string, usersList: string | undefined): Promise<SlackUser[]> {
  const exported = await readJsonFile<SlackUser[]>(path, 'users.json');
  if (!Array.isArray(exported)) throw new ImportError('expected a list of users', 'users.json');
  if (!usersList) return exported;
  const answer = await readJsonFile<Json | Json[]>(usersList, usersList);
  // The API's answer ({"ok": true, "members": […]}), or the pages of it, or the members alone.
  const pages = Array.isArray(answer) ? answer : [answer];
  const listed = pages.flatMap((page) =>
    Array.isArray(page)
      ? (page as SlackUser[])
      : Array.isArray(page.members)
        ? (page.members as SlackUser[])
        : [page as SlackUser],
  );
  const byId = new Map(listed.filter((u) => typeof u.id === 'string').map((u) => [u.id, u]));
  const merged = exported.map((u) => {
    const api = byId.get(u.id);
    if (!api) return u;
    byId.delete(u.id);
    return { ...u, ...api, profile: { ...(u.profile ?? {}), ...(api.profile ?? {}) } };
  });
  return [...merged, ...byId.values()];
}

/** The organization's users in the order they are found, by Slack id. */
export class SlackAccounts {
  /** Slack user (or bot) id → local user id. */
  readonly local = new Map<string, number>();
  readonly users: ModelUser[] = [];
  /** The people mentions are converted with. */
  readonly people = new Map<string, SlackPerson>();
  /** Local user id → the URL of their own picture (slackAvatarUrl), for those who have one. */
  readonly avatarUrls = new Map<number, string>();
  private readonly usedBotEmails = new Map<string, number>();
  /** Address (lower case) → local user id. */
  private readonly found = new Map<string, number>();

  constructor(private readonly domain: string) {}

  has(slackId: string): boolean {
    return this.local.has(slackId);
  }

  /** A member of a conversation the user lists lack (a person of a shared channel): a mirror dummy. */
  addMember(slackId: string): void {
    if (!this.has(slackId)) this.add({ id: slackId, name: slackId, is_mirror_dummy: true, profile: {} });
  }

  /** A message's sender the user lists lack: an integration bot (a message with a bot_id only) or a mirror dummy. */
  addSender(message: Json): void {
    const sender = senderOf(message);
    if (!sender || sender === 'U00' || this.has(sender)) return;
    if (message.subtype === 'bot_message' && !message.user && message.bot_id) {
      const name = str(message.username) || `Slack bot ${sender}`;
      this.add(
        {
          id: sender,
          name,
          real_name: name,
          deleted: false,
          is_bot: true,
          profile: { bot_id: sender, first_name: name },
        },
        { isBot: true, botType: 1 },
      );
    } else {
      this.add({ id: sender, name: sender, is_mirror_dummy: true, profile: {} });
    }
  }

  add(user: SlackUser, fields: Partial<ModelUser> = {}): void {
    const { email, placeholder } = this.emailOf(user);
    // Zulip merges Slack accounts that share an address (shared channels) into one.
    const same = this.found.get(email.toLowerCase());
    if (same !== undefined) {
      this.local.set(user.id, same);
      return;
    }
    const id = this.users.length + 1;
    this.found.set(email.toLowerCase(), id);
    this.local.set(user.id, id);
    const isBot = isSlackbot(user) || user.is_bot === true || fields.isBot === true;
    let role: ModelUser['role'] = 400;
    if (user.is_owner || user.is_primary_owner) role = 100;
    else if (user.is_admin) role = 200;
    if (user.is_restricted || user.is_ultra_restricted) role = 600;
    const model = newUser({
      id,
      sourceId: user.id,
      email,
      emailIsPlaceholder: placeholder,
      fullName: fullNameOf(user),
      role,
      isBot,
      botType: isBot ? 1 : null,
      isActive: user.deleted !== true && user.is_mirror_dummy !== true,
      isMirrorDummy: user.is_mirror_dummy === true,
      timezone: timezoneOf(user),
      ...fields,
    });
    this.users.push(model);
    const avatar = slackAvatarUrl(user);
    if (avatar) this.avatarUrls.set(id, avatar);
    this.people.set(user.id, { id: user.id, name: str(user.name), fullName: model.fullName });
  }

  private emailOf(user: SlackUser): { email: string; placeholder: boolean } {
    const email = str(user.profile?.email);
    if (email) return { email, placeholder: false };
    const domain = this.domain;
    if (user.profile?.bot_id || user.is_bot) {
      // Zulip's SlackBotEmail: "<name without Bot and spaces>-bot@<domain>", numbered when taken.
      const name = str(user.profile?.real_name_normalized) || str(user.profile?.first_name) || fullNameOf(user);
      const base = `${name.replace(/Bot/g, '').replace(/\s/g, '').toLowerCase() || 'slack'}-bot`;
      const count = (this.usedBotEmails.get(base) ?? 0) + 1;
      this.usedBotEmails.set(base, count);
      return { email: `${count === 1 ? base : `${base}-${count}`}@${domain}`, placeholder: true };
    }
    if (isSlackbot(user)) return { email: `imported-slackbot-bot@${domain}`, placeholder: true };
    // No address in the export and none from users.list: Zulip's earlier rule, an address at the server's domain
    // that nobody receives mail at (the user signs in once an administrator gives them a real one).
    const hash = createHash('sha256').update(user.id).digest('hex').slice(0, 20);
    return { email: `slack-${hash}@${domain}`, placeholder: true };
  }
}
