import type { contracts } from '@confab/events';
import type { Role } from '@confab/identity';

export type { Role };
export type GroupRef = contracts.GroupRef;
export type GroupSettingValue = contracts.GroupSettingValue;

/** Who holds a permission: a system group by name (`role:members`), a group id, or an anonymous group. */
export type PermissionValue = string | GroupSettingValue;

export interface Realm {
  id: number;
  stringId: string;
  url: string;
  emptyTopicDisplayName: string;
  mandatoryTopics: boolean;
  messageContentDeleteLimitSeconds: number | null;
  waitingPeriodThreshold: number;
  /** Editing and moving messages; null limits mean none. */
  allowMessageEditing: boolean;
  messageContentEditLimitSeconds: number | null;
  moveWithinChannelLimitSeconds: number | null;
  moveBetweenChannelsLimitSeconds: number | null;
  enableReadReceipts: boolean;
  /** The private channel message reports go to; null: reporting is off. */
  moderationRequestChannelId: number | null;
  /** Zulip's inline_image_preview and inline_url_embed_preview: which previews the renderer adds. */
  inlineImagePreview: boolean;
  inlineUrlEmbedPreview: boolean;
  /** Days messages are kept (channels may override it); null: forever. */
  messageRetentionDays: number | null;
  permissions: Record<string, GroupRef>;
  deactivated: boolean;
}

/** Personal settings this service needs a copy of (the settings service owns them). */
export interface UserSettings {
  receivesTypingNotifications: boolean;
  sendStreamTypingNotifications: boolean;
  sendPrivateTypingNotifications: boolean;
  /** 1 on participation, 2 on send, 3 on initiation, 4 never. */
  automaticallyFollowTopicsPolicy: number;
  automaticallyUnmuteTopicsInMutedStreamsPolicy: number;
  automaticallyFollowTopicsWhereMentioned: boolean;
  /** Off: the server keeps no drafts for the user. */
  enableDraftsSynchronization: boolean;
  /** Others may see that this user read a message. */
  sendReadReceipts: boolean;
  /** Administrators may export this user's private data. */
  allowPrivateDataExport: boolean;
  /** Which notices of resolved topics arrive read (Zulip's resolved_topic_notice_auto_read_policy). */
  resolvedTopicNoticeAutoReadPolicy: ResolvedNoticePolicy;
}

export type ResolvedNoticePolicy = 'always' | 'except_followed' | 'never';

export interface User extends UserSettings {
  id: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  dateJoined: Date;
  /** The organization's Notification Bot: it posts notices of moved and resolved topics anywhere. */
  isSystemBot: boolean;
  /** The uploaded avatar's URL with its version; null for the default (Gravatar) one. */
  avatarUrl: string | null;
  /** Imported as long-term idle (Zulip's rule): its channel messages get their rows on its first request. */
  longTermIdle: boolean;
}

/** Zulip's UserProfile.OUTGOING_WEBHOOK_BOT: messages that mention it or are sent to it are posted to its service. */
export const OUTGOING_WEBHOOK_BOT = 3;

export interface Group {
  id: number;
  realmId: number;
  name: string;
  isSystemGroup: boolean;
  deactivated: boolean;
  canMentionGroup: GroupSettingValue;
}

export const CHANNEL_PERMISSION_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelPermission = (typeof CHANNEL_PERMISSION_SETTINGS)[number];

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface Channel {
  id: number;
  realmId: number;
  recipientId: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: TopicsPolicy;
  creatorId: number | null;
  dateCreated: Date;
  firstMessageId: number | null;
  isArchived: boolean;
  folderId: number | null;
  permissions: Record<ChannelPermission, PermissionValue>;
}

export interface Subscription {
  userId: number;
  channelId: number;
  active: boolean;
  isMuted: boolean;
  pinToTop: boolean;
  color: string;
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

export const RECIPIENT_CHANNEL = 2;
export const RECIPIENT_DIRECT = 3;

export interface StoredMessage {
  id: number;
  realmId: number;
  senderId: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  sendingClient: string;
  isMeMessage: boolean;
  hasAttachment: boolean;
  hasImage: boolean;
  hasLink: boolean;
  lastEditTime: Date | null;
  /** Widgets (a poll) or their updates are attached; absent: not known to be. */
  hasSubmessages?: boolean;
  /** Direct messages: the participants' user ids, sorted. */
  dmUserIds: number[] | null;
}

export interface Reaction {
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
}

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

export const VISIBILITY_NONE = 0;
export const VISIBILITY_MUTED = 1;
export const VISIBILITY_UNMUTED = 2;
export const VISIBILITY_FOLLOWED = 3;
export type VisibilityPolicy = 0 | 1 | 2 | 3;

/** A user's new visibility policy for a topic (0 removes it). */
export interface TopicPolicyChange {
  userId: number;
  channelId: number;
  topicName: string;
  topicKey: string;
  policy: VisibilityPolicy;
}

/** A custom emoji of the organization (the settings service owns them); `id` is a realm_emoji reaction's code. */
export interface CustomEmoji {
  id: string;
  name: string;
  sourceUrl: string;
  deactivated: boolean;
}

/** An organization's custom emoji, by name (the active one wins a name) and by id. */
export interface CustomEmojiSet {
  byName: ReadonlyMap<string, CustomEmoji>;
  byId: ReadonlyMap<string, CustomEmoji>;
}

export interface Attachment {
  id: number;
  realmId: number;
  ownerId: number;
  fileName: string;
  pathId: string;
  size: number;
  contentType: string;
  createTime: Date;
}

/** What the sender's automatic topic policy and post permission need, read before sending. */
export interface SendFacts {
  subscribed: boolean;
  senderMuted: boolean | null;
  senderPolicy: number;
  topicHadMessages: boolean;
  /** Current policies of the mentioned users for this topic. */
  mentionedPolicies: Map<number, number>;
  /** Mentioned users who are active subscribers (they receive the message). */
  mentionedSubscribed: Set<number>;
}
