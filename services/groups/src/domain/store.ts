import type { Written } from '@confab/events';
import type { Group, GroupPatch, GroupUser, NewGroup, RealmInfo } from './types.js';

/**
 * What the domain needs from storage, inside one transaction (or outside any, for reads). Membership answers count
 * active users only: rows of deactivated users stay, as in Zulip, but are invisible.
 */
export interface GroupStore {
  realm(realmId: number): Promise<RealmInfo | null>;
  realmsWithWaitingPeriod(): Promise<RealmInfo[]>;
  upsertRealm(realm: RealmInfo): Promise<void>;

  user(userId: number): Promise<GroupUser | null>;
  /** The realm's users among `ids` (any state), in no particular order; unknown ids are left out. */
  users(realmId: number, ids: readonly number[]): Promise<GroupUser[]>;
  usersInRealm(realmId: number): Promise<GroupUser[]>;
  upsertUser(user: GroupUser): Promise<void>;

  group(realmId: number, groupId: number): Promise<Group | null>;
  groups(realmId: number, ids: readonly number[]): Promise<Group[]>;
  groupsInRealm(realmId: number, options: { includeDeactivated: boolean }): Promise<Group[]>;
  /** Groups of any realm with an id above `afterId`, in id order (for other services' backfills). */
  groupsAfter(afterId: number, limit: number): Promise<Group[]>;
  groupByName(realmId: number, name: string): Promise<Group | null>;
  createGroup(group: NewGroup): Promise<Group>;
  updateGroup(groupId: number, patch: GroupPatch): Promise<Group>;

  /** Active direct members of each group, sorted. */
  directMembers(groupIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Direct subgroups of each group, sorted. */
  directSubgroups(groupIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Groups that have `groupId` as a direct subgroup. */
  directSupergroups(groupId: number): Promise<number[]>;
  /** The given groups and every group below them. */
  recursiveSubgroups(groupIds: readonly number[]): Promise<number[]>;
  /** The given groups and every group above them. */
  recursiveSupergroups(groupIds: readonly number[]): Promise<number[]>;
  /** Active members of each group or of any group below it, sorted; with `among`, only those of these users. */
  recursiveMembers(groupIds: readonly number[], among?: readonly number[]): Promise<Map<number, number[]>>;
  isRecursiveMember(groupId: number, userId: number): Promise<boolean>;
  /** Every group the user is a direct member of (whether or not the user is active). */
  directGroupsOf(userId: number): Promise<number[]>;

  addMembers(groupId: number, userIds: readonly number[]): Promise<void>;
  removeMembers(groupId: number, userIds: readonly number[]): Promise<void>;
  addSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void>;
  removeSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void>;
}

export type { Written } from '@confab/events';

/** Transactions over the store. Writes to one organization are serialized, so checks made inside stay true. */
export interface GroupsDatabase {
  read<T>(fn: (store: GroupStore) => Promise<T>): Promise<T>;
  write<T>(realmId: number, fn: (store: GroupStore) => Promise<Written<T>>): Promise<T>;
  /** A write that applies event `eventId` for `consumer` once; `undefined` when it had been applied already. */
  writeOnce<T>(
    realmId: number,
    claim: { consumer: string; eventId: string },
    fn: (store: GroupStore) => Promise<Written<T>>,
  ): Promise<T | undefined>;
}
