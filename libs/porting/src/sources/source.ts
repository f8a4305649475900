import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { emojiByCode, emojiByName } from '@confab/markdown';
import { ImportError } from '../loader.js';
import type { RemoteImages } from '../remote.js';
import type {
  FailedFetch,
  LinkedFile,
  ModelChannel,
  ModelEmoji,
  ModelGroup,
  ModelMessage,
  ModelProfileField,
  ModelRealm,
  ModelUpload,
  ModelUser,
  ModelUserTopic,
} from '../model.js';

/**
 * What a source reads before its messages, with ids local to the export (1, 2, … per kind); the orchestrator then
 * asks the owning services for the final ids and maps these through them.
 */
export interface SourceStructure {
  realm: Omit<ModelRealm, 'id' | 'subdomain'>;
  users: ModelUser[];
  profileFields: ModelProfileField[];
  emoji: ModelEmoji[];
  channels: ModelChannel[];
  groups: ModelGroup[];
  userTopics: ModelUserTopic[];
  /** Images the export names by URL that could not be fetched (the user keeps the default avatar, …). */
  failedFetches?: FailedFetch[];
}

/** Local ids (of the structure) to final ones. */
export interface IdMaps {
  realmId: number;
  user: (local: number) => number;
  channel: (local: number) => number;
  group: (local: number) => number;
  emoji: (local: number) => number;
  field: (local: number) => number;
}

/** Where a source's second pass sends what it reads, with final ids. */
export interface MessageSink {
  message(message: ModelMessage): Promise<void>;
  /** Registers a file of the export as an upload; answers its path id (for the message's link) and index. */
  upload(upload: Omit<ModelUpload, 'pathId'> & { pathId?: string }): Promise<{ index: number; pathId: string }>;
  /** A file the export only links to (hosted elsewhere), listed in the summary. */
  linked(file: LinkedFile): void;
  /** Anything else the summary should say (records skipped, and why). */
  note(text: string): void;
}

export interface SourceReader {
  structure(): Promise<SourceStructure>;
  /** The messages in date order, with the ids of `ids`. */
  messages(ids: IdMaps, sink: MessageSink): Promise<void>;
}

export interface SourceOptions {
  /** The export's root directory. */
  root: string;
  /** The server's host, for placeholder addresses (users without an email, bots). */
  domain: string;
  /** Slack: the users.list answer, which has the emails exports leave out (Zulip's --token path). */
  slackUsers?: string;
  /** Slack: the emoji.list answer, the organization's custom emoji (Zulip's --token path). */
  slackEmoji?: string;
  /** Images the export names by URL (Slack's avatars and emoji): the guarded client and the import's directory. */
  remote?: RemoteImages;
  /** Mattermost: the team to import when the export has several. */
  team?: string;
}

/** A JSON file of the export, with the file named when it is not JSON. */
export async function readJsonFile<T>(path: string, name: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new ImportError('missing from the export', name);
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new ImportError(`not valid JSON (${err instanceof Error ? err.message : String(err)}); is it truncated?`, name);
  }
}

/** Zulip's sanitize_name, which its importers apply to the names of uploaded files in their path ids. */
export function sanitizeName(value: string): string {
  const cleaned = value
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned.slice(0, 200);
}

/** A new upload's path id, as Zulip's importers make them: `<realm id>/<2 hex>/<random>/<name>`. */
export function newPathId(realmId: number, fileName: string): string {
  const bucket = randomBytes(1)[0]!.toString(16);
  return `${realmId}/${bucket}/${randomBytes(18).toString('base64url')}/${sanitizeName(fileName)}`;
}

/** A Markdown link to an upload, as Zulip's get_markdown_link_for_url writes it. */
export function uploadLink(name: string, pathId: string): string {
  return `[${name.replace(/[[\]]/g, '')}](/user_uploads/${pathId})`;
}

/** Zulip's emoji name for a source's emoji name (Slack's and Mattermost's follow iamcal's and GitHub's names). */
export function unicodeEmoji(name: string): { name: string; code: string } | undefined {
  const found = emojiByName(name);
  if (!found) return undefined;
  return { name: emojiByCode(found.code)?.name ?? found.name, code: found.code };
}

/** Zulip's long_term_idle_helper: active senders sent more than 10 messages, or one in the last 60 days. */
export class ActivityTracker {
  private readonly counts = new Map<number, number>();
  private readonly recent = new Set<number>();
  private readonly since: number;

  constructor(now: number = Date.now() / 1000) {
    this.since = now - 60 * 24 * 60 * 60;
  }

  sent(userId: number, dateSent: number): void {
    if (this.recent.has(userId)) return;
    if (dateSent > this.since) this.recent.add(userId);
    this.counts.set(userId, (this.counts.get(userId) ?? 0) + 1);
  }

  isIdle(userId: number): boolean {
    return !this.recent.has(userId) && (this.counts.get(userId) ?? 0) <= 10;
  }
}

/** Zulip's STREAM_ASSIGNMENT_COLORS (zerver/lib/stream_color.py), which imports pick channel colors from. */
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a',
  '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4',
  '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/** A subscription as imports make them: active, a color picked from Zulip's palette, default notifications. */
export function subscription(userId: number, index: number): ModelChannel['subscribers'][number] {
  return {
    userId,
    active: true,
    color: CHANNEL_COLORS[index % CHANNEL_COLORS.length]!,
    isMuted: false,
    pinToTop: false,
    desktopNotifications: null,
    audibleNotifications: null,
    pushNotifications: null,
    emailNotifications: null,
    wildcardMentionsNotify: null,
  };
}

/** A user with the defaults imports start from. */
export function newUser(fields: Pick<ModelUser, 'id' | 'sourceId' | 'email' | 'fullName'> & Partial<ModelUser>): ModelUser {
  return {
    emailIsPlaceholder: false,
    role: 400,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isActive: true,
    isMirrorDummy: false,
    dateJoined: Date.now() / 1000,
    timezone: '',
    avatarFile: null,
    emailAddressVisibility: null,
    settings: {},
    profile: [],
    longTermIdle: null,
    mutedUsers: [],
    alertWords: [],
    status: null,
    ...fields,
  };
}

/** A channel with the defaults imports start from (Zulip's build_stream: private ones have protected history). */
export function newChannel(
  fields: Pick<ModelChannel, 'id' | 'sourceId' | 'name' | 'description' | 'inviteOnly'> & Partial<ModelChannel>,
): ModelChannel {
  return {
    historyPublicToSubscribers: !fields.inviteOnly,
    isWebPublic: false,
    archived: false,
    dateCreated: Date.now() / 1000,
    creatorId: null,
    messageRetentionDays: null,
    topicsPolicy: null,
    isDefault: false,
    permissions: {},
    subscribers: [],
    ...fields,
    description: fields.description.replaceAll('\n', ' '),
  };
}

/** Direct-message participants as the model keeps them: distinct, sorted. */
export function participants(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
