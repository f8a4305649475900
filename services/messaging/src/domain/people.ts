import type { PersonalFilters } from './personal-filters.js';
import type { Channel, CustomEmojiSet, Group, Realm, User } from './types.js';

/** This service's copies of other services' users and groups, as the domain reads them. */
export interface PeopleReader {
  /** Users of one organization with these ids (unknown ids are simply absent). */
  usersByIds(realmId: number, ids: readonly number[]): Promise<User[]>;
  usersByEmails(realmId: number, emails: readonly string[]): Promise<User[]>;
  /**
   * Active users of the organization (its system bots left out). Inside a unit of work, read them through its
   * store (MessagingStore.people): a transaction never waits for a second connection of its pool, which concurrent
   * transactions may all be holding (a deadlock until the transaction's timeout).
   */
  activeUsersInRealm(realmId: number): Promise<User[]>;
  /** The organization's Notification Bot; null until settings' event about it has arrived. */
  notificationBot(realmId: number): Promise<User | null>;
  /** Recursive members of the given groups. */
  groupMembers(groupIds: readonly number[]): Promise<Map<number, number[]>>;
}

/** This service's copies of people, read inside a unit of work (MessagingStore.people). */
export interface PeopleUnit {
  /** Active users of the organization (its system bots left out), read on the unit's own connection. */
  activeUsersInRealm(realmId: number): Promise<User[]>;
}

/**
 * Organization, user, group and channel facts read on every request, cached for a short time; the domain forgets
 * what it changes (other replicas see a change within the cache's lifetime).
 */
export interface DirectoryPort {
  realm(id: number): Promise<Realm | null>;
  user(id: number): Promise<User | null>;
  /** Every group of an organization, by id. */
  groupsOf(realmId: number): Promise<Map<number, Group>>;
  /** The organization's custom emoji. */
  realmEmoji(realmId: number): Promise<CustomEmojiSet>;
  /** Muted users and alert words of an organization's users. */
  personalFilters(realmId: number): Promise<PersonalFilters>;
  /** The organization's linkifiers, in the order they apply. */
  linkifiersOf(realmId: number): Promise<{ pattern: string; urlTemplate: string }[]>;
  forgetLinkifiers(realmId: number): void;
  /** The organization's users among `ids` (unknown ids left out). */
  usersByIds(realmId: number, ids: readonly number[]): Promise<User[]>;
  /** The channels among `ids` (unknown ids left out). */
  channelsByIds(ids: readonly number[]): Promise<Channel[]>;
  channel(id: number): Promise<Channel | null>;
  channelByName(realmId: number, name: string): Promise<Channel | null>;
  forgetGroups(realmId: number): void;
  /** Forgets a user's record here and in the other replicas (this process changed it). */
  forgetUser(id: number): void;
  /** Forgets what this process knows of an organization's people (another replica changed them). */
  forgetPeopleOf(realmId: number): void;
  forgetChannel(id: number): void;
  /** A newly created channel may have been cached as missing under its name. */
  forgetChannelName(realmId: number, name: string): void;
}
