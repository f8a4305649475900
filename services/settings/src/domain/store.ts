import type { OutboxRecord } from '@confab/events';
import type {
  BotService,
  EmailChange,
  NewProfileField,
  ProfileField,
  ProfileFieldValue,
  NavigationView,
  NewRealm,
  NewRealmEmoji,
  NewUser,
  Realm,
  RealmDomain,
  RealmEmoji,
  RealmPatch,
  StoredSettings,
  User,
  UserChanges,
  UserStatus,
} from './types.js';

/**
 * What the domain needs from its database, in one transaction (or outside any, for reads). `repositories/`
 * implements it; the domain never sees how.
 */
export interface Store {
  realms: RealmStore;
  users: UserStore;
  settings: UserSettingsStore;
  navigationViews: NavigationViewStore;
  emailChanges: EmailChangeStore;
  meetingTokens: MeetingTokenStore;
  statuses: UserStatusStore;
  mutedUsers: MutedUserStore;
  alertWords: AlertWordStore;
  emoji: RealmEmojiStore;
  domains: RealmDomainStore;
  botStorage: BotStorageStore;
  systemGroups: SystemGroupStore;
  botServices: BotServiceStore;
  profileFields: ProfileFieldStore;
}

/** What a unit of work returns: its result and the events that commit with it. */
export interface Written<T> {
  result: T;
  events: OutboxRecord[];
}

/** What a presence report reads before anything else, in one round trip (POST /users/me/presence, every minute). */
export interface PresenceFacts {
  user: User;
  realm: Pick<Realm, 'id' | 'presenceDisabled'>;
  /** The personal settings the user set (the catalog gives the rest). */
  settingValues: Record<string, unknown>;
}

/** The reads of the paths every client takes (GET /users/me, presence reports), each in one round trip. */
export interface OwnUserRead {
  /** GET /users/me's read: the user and their custom profile field values. */
  ownUser(userId: number): Promise<{ user: User; profileValues: ProfileFieldValue[] } | null>;
  /** Null when the user or their organization is gone. */
  presenceFacts(userId: number): Promise<PresenceFacts | null>;
}

export interface Database extends OwnUserRead {
  /** Reads outside any transaction. */
  readonly store: Store;
  /**
   * The one unit of work: the changes and their outbox rows commit together, then the relay is woken. Throws
   * `AlreadyExists` when a write collides with a unique row (a concurrent request got there first).
   */
  write<T>(fn: (store: Store) => Promise<Written<T>>): Promise<T>;
  ping(): Promise<boolean>;
}

/** A write collided with an existing row (a unique key). */
export class AlreadyExists extends Error {
  constructor() {
    super('already exists');
    this.name = 'AlreadyExists';
  }
}

export interface RealmStore {
  byId(id: number): Promise<Realm | null>;
  byStringId(stringId: string): Promise<Realm | null>;
  /** Organizations with an id above `afterId`, in id order (other services' backfills). */
  after(afterId: number, limit: number): Promise<Realm[]>;
  create(realm: NewRealm): Promise<Realm>;
  /** The organization, locked until the transaction ends (settings changes read, then write, its settings). */
  lock(realmId: number): Promise<Realm | null>;
  update(realmId: number, patch: RealmPatch): Promise<Realm>;
}

export interface UserStore {
  byId(id: number): Promise<User | null>;
  byEmail(realmId: number, email: string): Promise<User | null>;
  /** Users of the realm (all, or those among `ids`), in id order; system bots are not among them. */
  inRealm(realmId: number, ids?: readonly number[]): Promise<User[]>;
  /** The realm's system bots (the Notification Bot), Zulip's cross-realm bots. */
  systemBots(realmId: number): Promise<User[]>;
  after(afterId: number, limit: number): Promise<User[]>;
  create(user: NewUser): Promise<User>;
  update(userId: number, changes: UserChanges): Promise<User>;
  /** The user, locked until the transaction ends. */
  lock(userId: number): Promise<User | null>;
  setActive(userId: number, active: boolean): Promise<User>;
  /** Sets (or, with null, removes) the uploaded avatar and increments avatar_version. */
  setAvatar(userId: number, fileName: string | null): Promise<User>;
  countActiveOwners(realmId: number): Promise<number>;
  /**
   * How many of the realm's users are active (bots included, system bots not), counted up to `atMost`: a caller
   * comparing with a limit needs no more, and a large organization is never read whole for it.
   */
  countActive(realmId: number, atMost: number): Promise<number>;
  /** Changes with every committed write to the organization's users or their profile values (PeopleSource). */
  peopleFingerprint(realmId: number): Promise<string>;
  /**
   * The user's one API key: gives them `key` unless they already hold one that is kept (a key stored only by its
   * hash, from before keys were kept, is replaced), and answers the key they hold afterwards.
   */
  ensureApiKey(userId: number, key: string, keyHash: string): Promise<string>;
  /** Gives the user `key` in place of their current one, which stops working. */
  replaceApiKey(userId: number, key: string, keyHash: string): Promise<void>;
  /** The API keys these users hold, where kept (a key from before keys were kept is known only by its hash). */
  apiKeysOf(userIds: readonly number[]): Promise<Map<number, string>>;
  /** The user holding this API key (by hash), with their organization. */
  byApiKeyHash(keyHash: string): Promise<{ user: User; realm: Realm } | null>;
}

export interface UserSettingsStore {
  get(userId: number): Promise<StoredSettings>;
  /** Rows of these users (users without one get an empty row: all defaults). */
  getMany(userIds: readonly number[]): Promise<Map<number, StoredSettings>>;
  /** The rows of these users, locked until the transaction ends, so concurrent edits never lose each other's keys. */
  lockMany(userIds: readonly number[]): Promise<Map<number, StoredSettings>>;
  save(settings: StoredSettings): Promise<void>;
}

export interface NavigationViewStore {
  list(userId: number): Promise<NavigationView[]>;
  find(userId: number, fragment: string): Promise<NavigationView | null>;
  nameTaken(userId: number, name: string): Promise<boolean>;
  create(userId: number, view: NavigationView): Promise<NavigationView>;
  /** False when the view does not exist (any more). */
  update(
    userId: number,
    fragment: string,
    data: { isPinned?: boolean | undefined; name?: string | undefined },
  ): Promise<boolean>;
  remove(userId: number, fragment: string): Promise<boolean>;
}

export interface EmailChangeStore {
  /** Records a new request; older pending requests of the user stop working (Zulip keeps one live link). */
  create(change: Omit<EmailChange, 'id' | 'status'> & { keyHash: string }): Promise<EmailChange>;
  byKeyHash(keyHash: string): Promise<EmailChange | null>;
  /** Marks a pending, unexpired request used; false when another request got there first or it is not usable. */
  claim(id: number, now: Date): Promise<boolean>;
  setStatus(id: number, status: number): Promise<void>;
}

export interface MeetingTokenStore {
  /** The sealed token of the user for this provider, or null. */
  get(userId: number, provider: string): Promise<string | null>;
  put(userId: number, provider: string, sealed: string): Promise<void>;
  remove(userId: number): Promise<boolean>;
  /** Records an OAuth `state` in flight (and sweeps expired ones). */
  addState(stateHash: string, userId: number, expiresAt: Date): Promise<void>;
  /** Consumes a state: the user it was issued to, or null when it is unknown, used or expired. */
  takeState(stateHash: string, now: Date): Promise<number | null>;
}

export interface UserStatusStore {
  get(userId: number): Promise<UserStatus | null>;
  /** Statuses of the realm's active users. */
  inRealm(realmId: number): Promise<UserStatus[]>;
  /** Sets the fields given (undefined leaves a field as it is); creates the row when needed. */
  upsert(
    userId: number,
    fields: { statusText?: string; emojiName?: string; emojiCode?: string; reactionType?: string },
    at: Date,
  ): Promise<UserStatus>;
}

export interface MutedUserStore {
  /** Users this user muted, oldest first. */
  list(userId: number): Promise<{ mutedUserId: number; dateMuted: Date }[]>;
  /** False when the user was muted already. */
  add(userId: number, mutedUserId: number, at: Date): Promise<boolean>;
  /** False when the user was not muted. */
  remove(userId: number, mutedUserId: number): Promise<boolean>;
}

export interface AlertWordStore {
  /** The user's words, in the order they were added. */
  list(userId: number): Promise<string[]>;
  add(userId: number, realmId: number, words: readonly string[]): Promise<void>;
  /** Removes words regardless of case. */
  remove(userId: number, words: readonly string[]): Promise<void>;
}

export interface RealmEmojiStore {
  /** Every custom emoji of the realm, deactivated ones too, in id order. */
  inRealm(realmId: number): Promise<RealmEmoji[]>;
  /** The active emoji with this name. */
  activeByName(realmId: number, name: string): Promise<RealmEmoji | null>;
  create(emoji: NewRealmEmoji): Promise<RealmEmoji>;
  setFileName(id: number, fileName: string): Promise<RealmEmoji>;
  deactivate(id: number): Promise<void>;
  /** The emoji stored under this file name in the realm (serving images). */
  byFileName(realmId: number, fileName: string): Promise<RealmEmoji | null>;
}

export interface RealmDomainStore {
  /** The organization's domains, alphabetically. */
  inRealm(realmId: number): Promise<RealmDomain[]>;
  byDomain(realmId: number, domain: string): Promise<RealmDomain | null>;
  /** Throws `AlreadyExists` (through the unit of work) when the organization has the domain already. */
  create(realmId: number, domain: string, allowSubdomains: boolean): Promise<RealmDomain>;
  setAllowSubdomains(id: number, allowSubdomains: boolean): Promise<RealmDomain>;
  remove(id: number): Promise<void>;
}

export interface BotStorageStore {
  /** Entries of the bot; all of them, or those among `keys`. */
  get(botId: number, keys?: readonly string[]): Promise<Map<string, string>>;
  /** Characters used: key and value lengths summed, of every entry or of the given keys. */
  size(botId: number, keys?: readonly string[]): Promise<number>;
  put(botId: number, entries: ReadonlyMap<string, string>): Promise<void>;
  /** Removes the given keys (all when undefined); the number removed. */
  remove(botId: number, keys?: readonly string[]): Promise<number>;
}

/** The realm's system groups (from the groups service's events): `role:members` → group id. */
export interface SystemGroupStore {
  ofRealm(realmId: number): Promise<Map<string, number>>;
  save(realmId: number, name: string, groupId: number): Promise<void>;
  isEmpty(): Promise<boolean>;
}

/** Outgoing webhook bots' services. */
export interface BotServiceStore {
  ofBots(botIds: readonly number[]): Promise<BotService[]>;
  add(service: BotService): Promise<void>;
  update(botId: number, changes: { baseUrl?: string | undefined; interface?: number | undefined }): Promise<void>;
}

/** Custom profile fields and users' values of them. */
export interface ProfileFieldStore {
  /** The organization's fields, in their order. */
  inRealm(realmId: number): Promise<ProfileField[]>;
  byId(id: number): Promise<ProfileField | null>;
  /** Appends the field after the others. */
  create(field: NewProfileField): Promise<ProfileField>;
  update(id: number, changes: Partial<Omit<ProfileField, 'id' | 'realmId'>>): Promise<ProfileField>;
  remove(id: number): Promise<void>;
  /** Sets each field's order to its position in `ids`. */
  reorder(ids: readonly number[]): Promise<void>;
  /** Values of these users (all users of the realm's fields). */
  valuesOf(userIds: readonly number[]): Promise<ProfileFieldValue[]>;
  /** Sets values (null removes one). */
  setValues(
    userId: number,
    values: readonly { fieldId: number; value: string | null; renderedValue?: string | null }[],
  ): Promise<void>;
}
