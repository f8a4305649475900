/**
 * The neutral model of an organization being imported: what every source (Slack, Mattermost, Zulip's own format) is
 * read into, and what each service's loader takes its part of. Ids are the final Confab ids, decided before the
 * messages are read by the services that own them (the loader protocol's `allocate`), so that every service's copy
 * of a fact agrees with its owner's. Files of the model live in the import's working directory (`model/`), one JSON
 * value per line for the large ones, so a loader in another process reads only what it needs.
 */

export type ImportSource = 'slack' | 'mattermost' | 'zulip';

/** Zulip's roles. */
export type ModelRole = 100 | 200 | 300 | 400 | 600;

/**
 * A group-setting value as the source gives it: a system group by name (`role:members`), a user group of the
 * import, or an anonymous group of users and groups.
 */
export type GroupRef =
  | { system: string }
  | { group: number }
  | { members: number[]; subgroups: number[]; systemSubgroups?: string[] };

export interface ModelRealm {
  id: number;
  source: ImportSource;
  subdomain: string;
  name: string;
  description: string;
  /** Seconds since the epoch. */
  dateCreated: number;
  /** Organization settings by Zulip's names (PATCH /realm), where the source has them. */
  settings: Record<string, unknown>;
  /** Settings new users start with (Zulip's RealmUserDefault), by name. */
  userSettingsDefaults: Record<string, unknown>;
  /** Group-valued organization permissions (Zulip's Realm.REALM_PERMISSION_GROUP_SETTINGS). */
  permissions: Record<string, GroupRef>;
  /** Channel-valued settings (new_stream_announcements_stream, …): channel id or null. */
  channelSettings: Record<string, number | null>;
  /** Linkifiers and code playgrounds (Zulip's own format only). */
  linkifiers: { pattern: string; urlTemplate: string }[];
  playgrounds: { name: string; pygmentsLanguage: string; urlTemplate: string }[];
}

export interface ModelUser {
  id: number;
  /** The source's own id or name, for messages naming a failed record. */
  sourceId: string;
  /** The delivery email; a placeholder at the server's domain when the source has none (`emailIsPlaceholder`). */
  email: string;
  emailIsPlaceholder: boolean;
  fullName: string;
  role: ModelRole;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  /** Zulip's mirror dummies: accounts of people outside the organization, inactive until they sign up. */
  isMirrorDummy: boolean;
  /** Seconds since the epoch. */
  dateJoined: number;
  timezone: string;
  /**
   * An image in the source (relative to its root), for the uploaded avatar; null: the default one. With
   * `avatarFetched`, an image fetched from the URL the export names, relative to the import's fetched directory.
   */
  avatarFile: string | null;
  avatarFetched?: boolean;
  /** Zulip's email_address_visibility; null: the organization's default. */
  emailAddressVisibility: number | null;
  /** Personal settings by Zulip's names (PATCH /settings). */
  settings: Record<string, unknown>;
  /** Custom profile field values. */
  profile: { fieldId: number; value: string }[];
  /** Zulip's long_term_idle: true or false from the source, null to decide from the messages (Zulip's rule). */
  longTermIdle: boolean | null;
  mutedUsers: { userId: number; dateMuted: number }[];
  alertWords: string[];
  status: { text: string; emojiName: string; emojiCode: string; reactionType: string; timestamp: number } | null;
}

export interface ModelProfileField {
  id: number;
  name: string;
  hint: string;
  fieldType: number;
  fieldData: string;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export interface ModelEmoji {
  id: number;
  name: string;
  authorId: number | null;
  /** The image in the source, relative to its root (with `fetched`, relative to the import's fetched directory). */
  file: string;
  fetched?: boolean;
  deactivated: boolean;
}

export interface ModelSubscription {
  userId: number;
  active: boolean;
  color: string | null;
  isMuted: boolean;
  pinToTop: boolean;
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

export interface ModelChannel {
  id: number;
  sourceId: string;
  name: string;
  description: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
  archived: boolean;
  /** Seconds since the epoch. */
  dateCreated: number;
  creatorId: number | null;
  messageRetentionDays: number | null;
  topicsPolicy: string | null;
  /** A default channel new members join (Zulip's DefaultStream). */
  isDefault: boolean;
  /** Group-valued channel permissions by Zulip's names (can_send_message_group, …). */
  permissions: Record<string, GroupRef>;
  subscribers: ModelSubscription[];
}

export interface ModelGroup {
  id: number;
  name: string;
  description: string;
  deactivated: boolean;
  creatorId: number | null;
  /** Seconds since the epoch. */
  dateCreated: number;
  members: number[];
  subgroups: number[];
  /** Group-valued settings by Zulip's names (can_mention_group, …). */
  settings: Record<string, GroupRef>;
}

export interface ModelReaction {
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
}

/** One message, one line of `messages.ndjson`, in the order of their dates (ids are given in that order). */
export interface ModelMessage {
  /** Where the message came from, for errors ("random/2015-06-12.json, message 7"). */
  ref: string;
  senderId: number;
  /** A channel message: the channel and its topic. */
  channelId?: number;
  topic?: string;
  /** A direct message: every participant, the sender included, sorted. */
  dmUserIds?: number[];
  /** Zulip Markdown, rendered by messaging as it renders a sent message. */
  content: string;
  /** Seconds since the epoch (fractions allowed). */
  dateSent: number;
  lastEditTime?: number | null;
  /** Zulip's edit history, newest first, where the source has one. */
  editHistory?: unknown[] | null;
  reactions?: ModelReaction[];
  /** Indexes (in uploads.ndjson) of the uploads this message links. */
  uploads?: number[];
  /**
   * Per-user rows from the source (Zulip's UserMessage: user id and Zulip's flag bits); absent: messaging makes the
   * rows by Zulip's import rule (subscribers, mentions, long-term idle users).
   */
  userFlags?: [number, number][];
}

/** A file of the export that becomes a Confab upload; `pathId` is already in the messages that link it. */
export interface ModelUpload {
  ownerId: number;
  pathId: string;
  fileName: string;
  /** The file in the source, relative to its root. */
  file: string;
  size: number;
  contentType: string;
  /** Seconds since the epoch. */
  createTime: number;
}

/** A user's topic visibility (Zulip's UserTopic). */
export interface ModelUserTopic {
  userId: number;
  channelId: number;
  topic: string;
  visibilityPolicy: number;
  lastUpdated: number;
}

/** A file an export only links to (Slack-hosted), listed in the summary rather than dropped silently. */
export interface LinkedFile {
  ref: string;
  name: string;
  url: string;
}

/** An image the export names by URL (an avatar, a custom emoji) that could not be fetched, for the summary. */
export interface FailedFetch {
  what: string;
  url: string;
  reason: string;
}

/** The model's files in the working directory. */
export const MODEL_FILES = {
  realm: 'realm.json',
  users: 'users.ndjson',
  profileFields: 'profile_fields.ndjson',
  emoji: 'emoji.ndjson',
  channels: 'channels.ndjson',
  groups: 'groups.ndjson',
  messages: 'messages.ndjson',
  uploads: 'uploads.ndjson',
  userTopics: 'user_topics.ndjson',
} as const;

/** Zulip's UserMessage flag bits (zerver/models/messages.py AbstractUserMessage.ALL_FLAGS, in order). */
export const ZULIP_FLAGS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  group_mentioned: 64,
  force_expand: 128,
  force_collapse: 256,
  has_alert_word: 512,
  historical: 1024,
  is_private: 2048,
  active_mobile_push_notification: 4096,
} as const;

/** Zulip's default topic names for messages outside threads. */
export const DEFAULT_TOPIC = { slack: 'imported from Slack', mattermost: 'imported from mattermost' } as const;

/** Zulip's MAX_TOPIC_NAME_LENGTH and MAX_MESSAGE_LENGTH. */
export const MAX_TOPIC_LENGTH = 60;
export const MAX_MESSAGE_LENGTH = 10_000;
