import type { contracts } from '@confab/events';
import type { Role } from '@confab/identity';

export type GroupRef = contracts.GroupRef;
export type { Role };

export interface Realm {
  id: number;
  /** Subdomain; '' for the server's default organization. */
  stringId: string;
  name: string;
  description: string;
  dateCreated: Date;
  deactivated: boolean;
  emailAuthEnabled: boolean;
  jwtKey: string | null;
  emptyTopicDisplayName: string;
  mandatoryTopics: boolean;
  messageContentDeleteLimitSeconds: number | null;
  waitingPeriodThreshold: number;
  nameChangesDisabled: boolean;
  emailChangesDisabled: boolean;
  presenceDisabled: boolean;
  allowMessageEditing: boolean;
  /** Null: no time limit. */
  messageContentEditLimitSeconds: number | null;
  moveMessagesWithinStreamLimitSeconds: number | null;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  enableReadReceipts: boolean;
  /** Null: messages are kept forever (Zulip's -1). */
  messageRetentionDays: number | null;
  /** As stored; `realmPermission` (realms.ts) fills in Zulip's defaults for settings added later. */
  permissions: Record<string, GroupRef>;
  /** The email_address_visibility new users start with. */
  defaultEmailAddressVisibility: number;
  /** Zulip's other organization settings, when set (realm-settings.ts holds the catalog and the defaults). */
  settings: Record<string, unknown>;
  /** What new users' personal settings start as, when set (PATCH /realm/user_settings_defaults). */
  userSettingsDefaults: Record<string, unknown>;
}

export interface User {
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
  isImportedStub: boolean;
  /** Zulip's system bots (the Notification Bot): not members of the organization (docs/architecture.md). */
  isSystemBot: boolean;
  timezone: string;
  dateJoined: Date;
  avatarVersion: number;
  /** The uploaded avatar's file name (Zulip's avatar_source "U"); null: the Gravatar default ("G"). */
  avatarFile: string | null;
  passwordHash: string | null;
  /** Who may see deliveryEmail (email-visibility.ts); anything but "everyone" makes `email` a dummy address. */
  emailAddressVisibility: number;
}

export const BOT_TYPE_GENERIC = 1;

export interface NewRealm {
  stringId: string;
  name: string;
  description?: string;
  jwtKey?: string | null;
  permissions: Realm['permissions'];
}

/** A change of organization settings (PATCH /realm; development and tests set some through /internal/dev). */
export interface RealmPatch {
  name?: string | undefined;
  description?: string | undefined;
  nameChangesDisabled?: boolean | undefined;
  emailChangesDisabled?: boolean | undefined;
  /** Password sign-in (the `Email` authentication method). */
  emailAuthEnabled?: boolean | undefined;
  presenceDisabled?: boolean | undefined;
  waitingPeriodThreshold?: number | undefined;
  mandatoryTopics?: boolean | undefined;
  allowMessageEditing?: boolean | undefined;
  enableReadReceipts?: boolean | undefined;
  /** Null: no limit (undefined leaves it). */
  messageContentDeleteLimitSeconds?: number | null | undefined;
  messageContentEditLimitSeconds?: number | null | undefined;
  moveMessagesWithinStreamLimitSeconds?: number | null | undefined;
  moveMessagesBetweenStreamsLimitSeconds?: number | null | undefined;
  messageRetentionDays?: number | null | undefined;
  permissions?: Realm['permissions'] | undefined;
  defaultEmailAddressVisibility?: number | undefined;
  /** The whole map of other settings after the change. */
  settings?: Record<string, unknown> | undefined;
  userSettingsDefaults?: Record<string, unknown> | undefined;
}

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  role: Role;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  passwordHash?: string | null;
  timezone?: string;
  isSystemBot?: boolean;
  /** Default: everyone (the API email is the delivery email). */
  emailAddressVisibility?: number;
}

export interface UserChanges {
  fullName?: string | undefined;
  role?: Role | undefined;
  timezone?: string | undefined;
  passwordHash?: string | undefined;
  /** A new delivery email. */
  email?: string | undefined;
  /** The API email (the delivery email, or a dummy address when the user hides it). */
  apiEmail?: string | undefined;
  emailAddressVisibility?: number | undefined;
  botOwnerId?: number | undefined;
}

/** Personal settings as stored (only values ever set; defaults live in the catalog). */
export interface StoredSettings {
  userId: number;
  values: Record<string, unknown>;
  selfEdited: string[];
}

export interface NavigationView {
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

export const EMAIL_CHANGE_PENDING = 0;
export const EMAIL_CHANGE_CONFIRMED = 1;
export const EMAIL_CHANGE_REPLACED = 2;

export interface EmailChange {
  id: number;
  userId: number;
  oldEmail: string;
  newEmail: string;
  status: number;
  expiresAt: Date;
}

/** A user's status (Zulip's UserStatus); empty strings mean unset. */
export interface UserStatus {
  userId: number;
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  timestamp: Date;
}

/** One of the organization's email domains (Zulip's RealmDomain), lower-case. */
export interface RealmDomain {
  id: number;
  realmId: number;
  domain: string;
  allowSubdomains: boolean;
}

export interface RealmEmoji {
  id: number;
  realmId: number;
  name: string;
  authorId: number | null;
  /** `<id>.<ext>` once the image is stored. */
  fileName: string;
  isAnimated: boolean;
  deactivated: boolean;
}

export interface NewRealmEmoji {
  realmId: number;
  name: string;
  authorId: number;
  isAnimated: boolean;
}

export const BOT_TYPE_INCOMING_WEBHOOK = 2;
export const BOT_TYPE_OUTGOING_WEBHOOK = 3;

/** Where an outgoing webhook bot's messages are posted (Zulip's Service). */
export interface BotService {
  botId: number;
  name: string;
  baseUrl: string;
  /** 1 Zulip's payload, 2 Slack's. */
  interface: number;
  token: string;
}

/** A custom profile field (Zulip's CustomProfileField). */
export interface ProfileField {
  id: number;
  realmId: number;
  name: string;
  hint: string;
  fieldType: number;
  /** JSON text of a select field's options or an external account's subtype; '' otherwise. */
  fieldData: string;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export type NewProfileField = Omit<ProfileField, 'id' | 'order'>;

export interface ProfileFieldValue {
  fieldId: number;
  userId: number;
  value: string;
  renderedValue: string | null;
}
