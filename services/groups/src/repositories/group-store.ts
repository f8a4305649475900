import type { Role } from '@confab/identity';
import type { GroupStore } from '../domain/store.js';
import {
  SETTING_NAMES,
  type Group,
  type GroupPatch,
  type GroupSettings,
  type GroupUser,
  type NewGroup,
  type RealmInfo,
  type SettingValue,
} from '../domain/types.js';
import type { Db, Prisma, Tx } from './prisma.js';

type GroupRow = Prisma.UserGroupGetPayload<object>;
type UserRow = Prisma.UserGetPayload<object>;
type RealmRow = Prisma.RealmGetPayload<object>;

/** Largest value of a Postgres integer column; ids beyond it cannot exist and must not reach a query. */
const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
const validIds = (ids: readonly number[]) => [...new Set(ids.filter(validId))];

const COLUMNS: Record<keyof GroupSettings, keyof GroupRow> = {
  can_add_members_group: 'canAddMembersGroup',
  can_join_group: 'canJoinGroup',
  can_leave_group: 'canLeaveGroup',
  can_manage_group: 'canManageGroup',
  can_mention_group: 'canMentionGroup',
  can_remove_members_group: 'canRemoveMembersGroup',
};

function toGroup(row: GroupRow): Group {
  const settings = Object.fromEntries(
    SETTING_NAMES.map((s) => [s, row[COLUMNS[s]] as unknown as SettingValue]),
  ) as GroupSettings;
  return {
    id: row.id,
    realmId: row.realmId,
    name: row.name,
    description: row.description,
    isSystemGroup: row.isSystemGroup,
    deactivated: row.deactivated,
    creatorId: row.creatorId,
    dateCreated: row.dateCreated,
    settings,
  };
}

function settingColumns(settings: Partial<GroupSettings>): Record<string, Prisma.InputJsonValue> {
  const out: Record<string, Prisma.InputJsonValue> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined) out[COLUMNS[name as keyof GroupSettings]] = value as Prisma.InputJsonValue;
  }
  return out;
}

function toUser(row: UserRow): GroupUser {
  return {
    id: row.id,
    realmId: row.realmId,
    role: row.role as Role,
    isBot: row.isBot,
    isActive: row.isActive,
    dateJoined: row.dateJoined,
  };
}

function toRealm(row: RealmRow): RealmInfo {
  return {
    id: row.id,
    permissions: (row.permissions ?? {}) as RealmInfo['permissions'],
    waitingPeriodThreshold: row.waitingPeriodThreshold,
  };
}

function groupBy(rows: readonly { key: number; value: number }[], keys: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>(keys.map((k) => [k, []]));
  for (const { key, value } of rows) out.get(key)?.push(value);
  return out;
}

/** The store over a Prisma client or an open transaction. Recursive questions are answered with recursive CTEs. */
export class PrismaGroupStore implements GroupStore {
  constructor(private readonly db: Db | Tx) {}

  async realm(realmId: number): Promise<RealmInfo | null> {
    if (!validId(realmId)) return null;
    const row = await this.db.realm.findUnique({ where: { id: realmId } });
    return row ? toRealm(row) : null;
  }

  async realmsWithWaitingPeriod(): Promise<RealmInfo[]> {
    const rows = await this.db.realm.findMany({ where: { waitingPeriodThreshold: { gt: 0 } }, orderBy: { id: 'asc' } });
    return rows.map(toRealm);
  }

  async upsertRealm(realm: RealmInfo): Promise<void> {
    const data = { permissions: realm.permissions, waitingPeriodThreshold: realm.waitingPeriodThreshold };
    await this.db.realm.upsert({ where: { id: realm.id }, create: { id: realm.id, ...data }, update: data });
  }

  async user(userId: number): Promise<GroupUser | null> {
    if (!validId(userId)) return null;
    const row = await this.db.user.findUnique({ where: { id: userId } });
    return row ? toUser(row) : null;
  }

  async users(realmId: number, ids: readonly number[]): Promise<GroupUser[]> {
    const wanted = validIds(ids);
    if (wanted.length === 0) return [];
    const rows = await this.db.user.findMany({ where: { realmId, id: { in: wanted } } });
    return rows.map(toUser);
  }

  async usersInRealm(realmId: number): Promise<GroupUser[]> {
    const rows = await this.db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
    return rows.map(toUser);
  }

  async upsertUser(user: GroupUser): Promise<void> {
    const data = {
      realmId: user.realmId,
      role: user.role,
      isBot: user.isBot,
      isActive: user.isActive,
      dateJoined: user.dateJoined,
    };
    await this.db.user.upsert({ where: { id: user.id }, create: { id: user.id, ...data }, update: data });
  }

  async group(realmId: number, groupId: number): Promise<Group | null> {
    if (!validId(groupId)) return null;
    const row = await this.db.userGroup.findFirst({ where: { id: groupId, realmId } });
    return row ? toGroup(row) : null;
  }

  async groups(realmId: number, ids: readonly number[]): Promise<Group[]> {
    const wanted = validIds(ids);
    if (wanted.length === 0) return [];
    const rows = await this.db.userGroup.findMany({ where: { realmId, id: { in: wanted } }, orderBy: { id: 'asc' } });
    return rows.map(toGroup);
  }

  async groupsInRealm(realmId: number, options: { includeDeactivated: boolean }): Promise<Group[]> {
    const rows = await this.db.userGroup.findMany({
      where: { realmId, ...(options.includeDeactivated ? {} : { deactivated: false }) },
      orderBy: { id: 'asc' },
    });
    return rows.map(toGroup);
  }

  async groupsAfter(afterId: number, limit: number): Promise<Group[]> {
    const rows = await this.db.userGroup.findMany({
      where: { id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toGroup);
  }

  async groupByName(realmId: number, name: string): Promise<Group | null> {
    const row = await this.db.userGroup.findUnique({ where: { realmId_name: { realmId, name } } });
    return row ? toGroup(row) : null;
  }

  async createGroup(group: NewGroup): Promise<Group> {
    const row = await this.db.userGroup.create({
      data: {
        ...(group.id !== undefined ? { id: group.id } : {}),
        ...(group.dateCreated !== undefined ? { dateCreated: group.dateCreated } : {}),
        ...(group.deactivated !== undefined ? { deactivated: group.deactivated } : {}),
        realmId: group.realmId,
        name: group.name,
        description: group.description,
        isSystemGroup: group.isSystemGroup,
        creatorId: group.creatorId,
        canAddMembersGroup: group.settings.can_add_members_group as Prisma.InputJsonValue,
        canJoinGroup: group.settings.can_join_group as Prisma.InputJsonValue,
        canLeaveGroup: group.settings.can_leave_group as Prisma.InputJsonValue,
        canManageGroup: group.settings.can_manage_group as Prisma.InputJsonValue,
        canMentionGroup: group.settings.can_mention_group as Prisma.InputJsonValue,
        canRemoveMembersGroup: group.settings.can_remove_members_group as Prisma.InputJsonValue,
      },
    });
    return toGroup(row);
  }

  async updateGroup(groupId: number, patch: GroupPatch): Promise<Group> {
    const row = await this.db.userGroup.update({
      where: { id: groupId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.deactivated !== undefined ? { deactivated: patch.deactivated } : {}),
        ...settingColumns(patch.settings ?? {}),
      },
    });
    return toGroup(row);
  }

  async directMembers(groupIds: readonly number[]): Promise<Map<number, number[]>> {
    const ids = validIds(groupIds);
    if (ids.length === 0) return new Map();
    // One row per group (its members as one array), not one per member: an organization's system groups hold
    // everyone, and a register reads them all.
    const rows = await this.db.$queryRawUnsafe<{ key: number; members: number[] }[]>(
      `SELECT m.group_id AS key, array_agg(m.user_id ORDER BY m.user_id) AS members
         FROM group_members m JOIN users u ON u.id = m.user_id AND u.is_active
        WHERE m.group_id = ANY($1::int[])
        GROUP BY m.group_id`,
      ids,
    );
    const out = new Map<number, number[]>(ids.map((k) => [k, []]));
    for (const { key, members } of rows) out.set(key, members);
    return out;
  }

  async directSubgroups(groupIds: readonly number[]): Promise<Map<number, number[]>> {
    const ids = validIds(groupIds);
    if (ids.length === 0) return new Map();
    const rows = await this.db.$queryRawUnsafe<{ key: number; value: number }[]>(
      `SELECT supergroup_id AS key, subgroup_id AS value FROM group_subgroups
        WHERE supergroup_id = ANY($1::int[]) ORDER BY 1, 2`,
      ids,
    );
    return groupBy(rows, ids);
  }

  async directSupergroups(groupId: number): Promise<number[]> {
    const rows = await this.db.groupSubgroup.findMany({
      where: { subgroupId: groupId },
      orderBy: { supergroupId: 'asc' },
    });
    return rows.map((r) => r.supergroupId);
  }

  async recursiveSubgroups(groupIds: readonly number[]): Promise<number[]> {
    const ids = validIds(groupIds);
    if (ids.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      `WITH RECURSIVE down(id) AS (
         SELECT unnest($1::int[])
         UNION
         SELECT s.subgroup_id FROM group_subgroups s JOIN down ON s.supergroup_id = down.id
       ) SELECT id FROM down ORDER BY id`,
      ids,
    );
    return rows.map((r) => r.id);
  }

  async recursiveSupergroups(groupIds: readonly number[]): Promise<number[]> {
    const ids = validIds(groupIds);
    if (ids.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      `WITH RECURSIVE up(id) AS (
         SELECT unnest($1::int[])
         UNION
         SELECT s.supergroup_id FROM group_subgroups s JOIN up ON s.subgroup_id = up.id
       ) SELECT id FROM up ORDER BY id`,
      ids,
    );
    return rows.map((r) => r.id);
  }

  async recursiveMembers(groupIds: readonly number[], among?: readonly number[]): Promise<Map<number, number[]>> {
    const ids = validIds(groupIds);
    if (ids.length === 0) return new Map();
    const users = among === undefined ? null : validIds(among);
    if (users !== null && users.length === 0) return groupBy([], ids);
    const rows = await this.db.$queryRawUnsafe<{ key: number; value: number }[]>(
      `WITH RECURSIVE tree(root, id) AS (
         SELECT g, g FROM unnest($1::int[]) AS g
         UNION
         SELECT tree.root, s.subgroup_id FROM group_subgroups s JOIN tree ON s.supergroup_id = tree.id
       )
       SELECT DISTINCT tree.root AS key, m.user_id AS value
         FROM tree
         JOIN group_members m ON m.group_id = tree.id AND ($2::int[] IS NULL OR m.user_id = ANY($2::int[]))
         JOIN users u ON u.id = m.user_id AND u.is_active
        ORDER BY 1, 2`,
      ids,
      users,
    );
    return groupBy(rows, ids);
  }

  async isRecursiveMember(groupId: number, userId: number): Promise<boolean> {
    if (!validId(groupId) || !validId(userId)) return false;
    const rows = await this.db.$queryRawUnsafe<{ found: boolean }[]>(
      `WITH RECURSIVE tree(id) AS (
         SELECT $1::int
         UNION
         SELECT s.subgroup_id FROM group_subgroups s JOIN tree ON s.supergroup_id = tree.id
       )
       SELECT EXISTS (
         SELECT 1 FROM tree
           JOIN group_members m ON m.group_id = tree.id AND m.user_id = $2::int
           JOIN users u ON u.id = m.user_id AND u.is_active
       ) AS found`,
      groupId,
      userId,
    );
    return rows[0]?.found ?? false;
  }

  async directGroupsOf(userId: number): Promise<number[]> {
    if (!validId(userId)) return [];
    const rows = await this.db.groupMember.findMany({ where: { userId }, orderBy: { groupId: 'asc' } });
    return rows.map((r) => r.groupId);
  }

  async addMembers(groupId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.groupMember.createMany({
      data: userIds.map((userId) => ({ groupId, userId })),
      skipDuplicates: true,
    });
  }

  async removeMembers(groupId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.groupMember.deleteMany({ where: { groupId, userId: { in: [...userIds] } } });
  }

  async addSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void> {
    if (subgroupIds.length === 0) return;
    await this.db.groupSubgroup.createMany({
      data: subgroupIds.map((subgroupId) => ({ supergroupId: groupId, subgroupId })),
      skipDuplicates: true,
    });
  }

  async removeSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void> {
    if (subgroupIds.length === 0) return;
    await this.db.groupSubgroup.deleteMany({ where: { supergroupId: groupId, subgroupId: { in: [...subgroupIds] } } });
  }
}
