import type { Attachment, Channel, ChannelPermission, PermissionValue, Subscription, TopicsPolicy } from './types.js';

/** A channel about to be created: what its creation request decided (the rest is set by storage). */
export type NewChannel = Pick<
  Channel,
  | 'realmId'
  | 'name'
  | 'description'
  | 'renderedDescription'
  | 'inviteOnly'
  | 'isWebPublic'
  | 'historyPublicToSubscribers'
  | 'messageRetentionDays'
  | 'topicsPolicy'
  | 'folderId'
  | 'permissions'
> & { creatorId: number };

export interface NewSubscription {
  userId: number;
  channelId: number;
  color: string;
}

/** Channels and who is subscribed to them (reads outside a unit of work; changes go through MessagingStore.channels). */
export interface ChannelStore {
  channelByName(realmId: number, name: string): Promise<Channel | null>;
  channelsByIds(ids: readonly number[]): Promise<Channel[]>;
  /** Existing channels among `names`, keyed by lower-cased name. */
  channelsByNames(realmId: number, names: readonly string[]): Promise<Map<string, Channel>>;
  channelsInRealm(realmId: number): Promise<Channel[]>;
  subscription(userId: number, channelId: number): Promise<Subscription | null>;
  /** The user's subscriptions (active ones unless told otherwise). */
  subscriptionsOfUser(userId: number, options?: { includeInactive?: boolean }): Promise<Subscription[]>;
  /** The user's subscriptions to these channels (active or not), keyed by channel id. */
  subscriptionsFor(userId: number, channelIds: readonly number[]): Promise<Map<number, Subscription>>;
  /** Active subscribers who are active users, per channel. */
  subscribers(channelIds: readonly number[]): Promise<Map<number, number[]>>;
  subscriberCount(channelId: number): Promise<number>;
  /** How many active subscribers who are active users each channel has (0 for none): `subscribers`' counts. */
  subscriberCounts(channelIds: readonly number[]): Promise<Map<number, number>>;
  /** Whether any message was sent to each channel in the last week (Zulip's is_recently_active, simplified). */
  recentlyActive(channelIds: readonly number[]): Promise<Set<number>>;
}

/** Channels and subscriptions inside a unit of work (MessagingStore.channels). */
export interface ChannelUnit {
  /** Existing channels among `names`, keyed by lower-cased name. */
  channelsByNames(realmId: number, names: readonly string[]): Promise<Map<string, Channel>>;
  /** Creates a channel and its recipient; a concurrent creation of the same name fails with ChannelNameTaken. */
  createChannel(data: NewChannel): Promise<Channel>;
  /** The user's subscriptions to these channels (active or not), keyed by channel id. */
  subscriptionsFor(userId: number, channelIds: readonly number[]): Promise<Map<number, Subscription>>;
  /** Active subscribers who are active users, per channel. */
  subscribers(channelIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Colors already used by each user's subscriptions (to pick new ones). */
  colorsInUse(userIds: readonly number[]): Promise<Map<number, string[]>>;
  /** Every subscription (active or not) of these users to these channels. */
  subscriptionsOf(userIds: readonly number[], channelIds: readonly number[]): Promise<Subscription[]>;
  /** Activates or creates subscriptions in one statement; returns those that were not already active. */
  subscribe(subs: readonly NewSubscription[]): Promise<Subscription[]>;
  /** Deactivates subscriptions in one statement; returns the (user, channel) pairs that were active. */
  unsubscribe(
    pairs: readonly { userId: number; channelId: number }[],
  ): Promise<{ userId: number; channelId: number }[]>;
}

export interface AttachmentWithMessages extends Attachment {
  messages: { id: number; dateSent: Date }[];
}

/** Uploaded files and which messages refer to them (reads outside a unit of work). */
export interface AttachmentStore {
  byId(id: number): Promise<Attachment | null>;
  byPathId(pathId: string): Promise<Attachment | null>;
  /** Uploads a new message may claim: the sender's own, or ones of the organization a message already refers to. */
  claimable(realmId: number, userId: number, pathIds: readonly string[]): Promise<Attachment[]>;
  /** The uploads a message refers to. */
  ofMessage(messageId: number): Promise<Attachment[]>;
  /** Unreferenced uploads created before `before` (for the periodic cleanup). */
  unclaimedBefore(before: Date, limit: number): Promise<Attachment[]>;
  /** The owner's uploads, newest first, with the messages that refer to them. */
  ofOwner(ownerId: number): Promise<AttachmentWithMessages[]>;
  withMessages(attachments: readonly Attachment[]): Promise<AttachmentWithMessages[]>;
  spaceUsed(ownerId: number): Promise<number>;
  /** Test support: makes uploads look older than they are. */
  ageAll(ownerId: number, by: { days: number }): Promise<void>;
}

/** Uploads inside a unit of work (MessagingStore.attachments). */
export interface AttachmentUnit {
  create(data: Omit<Attachment, 'id' | 'createTime'>): Promise<Attachment>;
  byId(id: number): Promise<Attachment | null>;
  link(attachmentIds: readonly number[], messageId: number): Promise<void>;
  /** Removes the links of one message to these uploads. */
  unlink(attachmentIds: readonly number[], messageId: number): Promise<void>;
  /** Sets the message's has_attachment from the links it has now. */
  refreshHasAttachment(messageId: number): Promise<boolean>;
  /** Removes the links of deleted messages; returns the attachments they referred to. */
  unlinkMessages(messageIds: readonly number[]): Promise<number[]>;
  /** Which of these attachments no message refers to any more. */
  unreferenced(attachmentIds: readonly number[]): Promise<Attachment[]>;
  delete(ids: readonly number[]): Promise<void>;
  withMessages(attachments: readonly Attachment[]): Promise<AttachmentWithMessages[]>;
  spaceUsed(ownerId: number): Promise<number>;
}

/** A subscription's personal settings by their API names (the stored fields they set). */
export interface SubscriptionPatch {
  color?: string;
  isMuted?: boolean;
  pinToTop?: boolean;
  desktopNotifications?: boolean | null;
  audibleNotifications?: boolean | null;
  pushNotifications?: boolean | null;
  emailNotifications?: boolean | null;
  wildcardMentionsNotify?: boolean | null;
}

/** What changes in a channel's row. */
export interface ChannelPatch {
  name?: string;
  description?: string;
  renderedDescription?: string;
  inviteOnly?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: number | null;
  topicsPolicy?: TopicsPolicy;
  isArchived?: boolean;
  folderId?: number | null;
  permissions?: Record<ChannelPermission, PermissionValue>;
}

/** Channel and subscription settings inside a unit of work (MessagingStore.channelSettings). */
export interface ChannelSettingsUnit {
  /** The channel, locked against concurrent changes; null when it does not exist. */
  lock(channelId: number): Promise<Channel | null>;
  /** Whether another channel of the organization has this name (case-insensitively). */
  nameTaken(realmId: number, name: string, exceptId: number): Promise<boolean>;
  update(channelId: number, patch: ChannelPatch): Promise<void>;
  /** Users with an active subscription. */
  subscribers(channelId: number): Promise<number[]>;
  updateSubscription(userId: number, channelId: number, patch: SubscriptionPatch): Promise<void>;
}

/** Default channels' reads (a port this domain owns; changes go through MessagingStore.defaultChannels). */
export interface DefaultChannelStore {
  /** The organization's default channels, by id, ascending. */
  ids(realmId: number): Promise<number[]>;
}

/** Default channels inside a unit of work (MessagingStore.defaultChannels). */
export interface DefaultChannelUnit {
  /** The organization's default channels, by id, ascending. */
  ids(realmId: number): Promise<number[]>;
  /** False when it was a default channel already. */
  add(realmId: number, channelId: number): Promise<boolean>;
  /** False when it was not a default channel. */
  remove(channelId: number): Promise<boolean>;
}

/** A channel folder as stored (Zulip's ChannelFolder). */
export interface ChannelFolder {
  id: number;
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  creatorId: number | null;
  dateCreated: Date;
  isArchived: boolean;
  order: number;
}

/** Channel folders' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface ChannelFolderStore {
  /** The organization's folders by `order`. */
  list(realmId: number): Promise<ChannelFolder[]>;
  byId(realmId: number, id: number): Promise<ChannelFolder | null>;
  /** Whether another folder of the organization has this name, in any case. */
  nameTaken(realmId: number, name: string): Promise<boolean>;
  /** Whether channels that are not archived are in the folder. */
  inUse(folderId: number): Promise<boolean>;
}

export interface ChannelFolderUnit {
  /** A new folder, last in the order (its order is its id, as in Zulip). */
  create(
    data: Pick<ChannelFolder, 'realmId' | 'name' | 'description' | 'renderedDescription' | 'creatorId'>,
  ): Promise<ChannelFolder>;
  update(
    id: number,
    patch: Partial<Pick<ChannelFolder, 'name' | 'description' | 'renderedDescription' | 'isArchived'>>,
  ): Promise<void>;
  /** Sets every folder's order to its position in `ids`. */
  reorder(realmId: number, ids: readonly number[]): Promise<void>;
}
