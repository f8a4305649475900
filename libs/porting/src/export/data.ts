/**
 * An organization as Confab's services hand it over for an export (each service its part, through its own
 * internal API), in Confab's terms; `writeZulipExport` (zulip-export.ts) turns it into Zulip's export format.
 */

/** A group-valued setting: a group's id, a system group's name, or an anonymous group. */
export type ExportGroupValue = number | string | { direct_members: number[]; direct_subgroups: number[] };

export interface ExportUser {
  id: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  dateJoined: number;
  timezone: string;
  emailAddressVisibility: number;
  avatarVersion: number;
  /** The uploaded avatar (PNG), base64; null: the default one. */
  avatar: string | null;
  settings: Record<string, unknown>;
  profile: { fieldId: number; value: string; renderedValue: string | null }[];
  mutedUsers: { userId: number; dateMuted: number }[];
  alertWords: string[];
  status: { text: string; emojiName: string; emojiCode: string; reactionType: string; timestamp: number } | null;
  allowPrivateDataExport: boolean;
  longTermIdle: boolean;
}

export interface ExportData {
  /** Zulip's RealmExport types: 1 public, 2 full with members' consent, 3 full. */
  exportType: 1 | 2 | 3;
  realm: {
    id: number;
    stringId: string;
    name: string;
    description: string;
    dateCreated: number;
    deactivated: boolean;
    /** Every organization setting by Zulip's name (group-valued ones as group ids or anonymous groups). */
    settings: Record<string, unknown>;
    userSettingsDefaults: Record<string, unknown>;
  };
  users: ExportUser[];
  profileFields: {
    id: number;
    name: string;
    hint: string;
    fieldType: number;
    fieldData: string;
    order: number;
    displayInProfileSummary: boolean;
    required: boolean;
    editableByUser: boolean;
  }[];
  emoji: { id: number; name: string; authorId: number | null; deactivated: boolean; fileName: string; data: string }[];
  groups: {
    id: number;
    name: string;
    description: string;
    isSystemGroup: boolean;
    deactivated: boolean;
    creatorId: number | null;
    dateCreated: number;
    members: number[];
    subgroups: number[];
    settings: Record<string, ExportGroupValue>;
  }[];
  channels: {
    id: number;
    name: string;
    description: string;
    renderedDescription: string;
    inviteOnly: boolean;
    historyPublicToSubscribers: boolean;
    isWebPublic: boolean;
    archived: boolean;
    dateCreated: number;
    creatorId: number | null;
    messageRetentionDays: number | null;
    topicsPolicy: string;
    firstMessageId: number | null;
    permissions: Record<string, ExportGroupValue>;
    isDefault: boolean;
  }[];
  subscriptions: {
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
  }[];
  messages: {
    id: number;
    senderId: number;
    /** A channel message's channel, or a direct message's participants. */
    channelId: number | null;
    dmUserIds: number[] | null;
    topic: string;
    content: string;
    renderedContent: string;
    dateSent: number;
    lastEditTime: number | null;
    editHistory: unknown[] | null;
    hasAttachment: boolean;
    hasImage: boolean;
    hasLink: boolean;
    /** Per-user rows: user id and Zulip's flag bits (ZULIP_FLAGS). */
    rows: [number, number][];
  }[];
  reactions: { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string }[];
  attachments: {
    id: number;
    ownerId: number;
    pathId: string;
    fileName: string;
    size: number;
    contentType: string;
    createTime: number;
    messageIds: number[];
    /** The file, base64 (or a reader of it). */
    data: () => Promise<Buffer>;
  }[];
  userTopics: { userId: number; channelId: number; topic: string; visibilityPolicy: number; lastUpdated: number }[];
  linkifiers: { id: number; pattern: string; urlTemplate: string; order: number }[];
  playgrounds: { id: number; name: string; pygmentsLanguage: string; urlTemplate: string }[];
}
