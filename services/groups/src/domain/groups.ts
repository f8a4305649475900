import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { MEMBERS, NOBODY } from '@confab/zulip';
import {
  groupForUpdate,
  groupInRealm,
  holdsRealmPermission,
  insufficientPermission,
  requireMemberOrAdmin,
  requireNonGuest,
  resolveRealmPermission,
} from './access.js';
import { apiGroup, groupRecord, viewsOf, type EventMeta } from './records.js';
import {
  anonymous,
  checkSettingValue,
  groupDeactivated,
  oldValueMismatch,
  sameValue,
  SETTING_CONFIG,
  simplify,
  valueUsesGroup,
} from './setting-values.js';
import type { GroupsDatabase, GroupStore } from './store.js';
import {
  SETTING_NAMES,
  type Actor,
  type Group,
  type GroupPatch,
  type GroupSettings,
  type SettingName,
  type SettingValue,
} from './types.js';

const MAX_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's check_user_group_name. */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw invalid("User group name can't be empty!");
  if ([...name].length > MAX_NAME_LENGTH) throw invalid(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`);
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw invalid(`User group name cannot start with '${prefix}'.`);
  return name;
}

const nameTaken = (name: string) => invalid(`User group '${name}' already exists.`);

async function systemGroupId(store: GroupStore, realmId: number, name: string): Promise<number> {
  const group = await store.groupByName(realmId, name);
  if (!group?.isSystemGroup) throw new Error(`organization ${realmId} has no system group ${name}`);
  return group.id;
}

/** GET /user_groups. */
export async function listGroups(db: GroupsDatabase, actor: Actor, includeDeactivated: boolean) {
  requireMemberOrAdmin(actor);
  return db.read(async (store) => {
    const views = await viewsOf(store, await store.groupsInRealm(actor.realmId, { includeDeactivated }));
    return views.map(apiGroup);
  });
}

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[] | undefined;
  settings: Partial<Record<SettingName, SettingValue>>;
}

/** POST /user_groups/create: returns the new group's id. */
export async function createGroup(
  db: GroupsDatabase,
  actor: Actor,
  input: CreateGroupInput,
  requestId?: string,
): Promise<number> {
  requireMemberOrAdmin(actor);
  const meta: EventMeta = { realmId: actor.realmId, requestId };
  return db.write(actor.realmId, async (store) => {
    if (!(await holdsRealmPermission(store, actor, 'can_create_groups', MEMBERS))) throw insufficientPermission();
    const users = new Map((await store.users(actor.realmId, input.members)).map((u) => [u.id, u]));
    for (const id of input.members) if (!users.get(id)?.isActive) throw invalid(`Invalid user ID: ${id}`);
    const name = checkGroupName(input.name);
    const nobodyId = await systemGroupId(store, actor.realmId, NOBODY);
    const settings = {} as GroupSettings;
    for (const setting of SETTING_NAMES) {
      const given = input.settings[setting];
      if (given !== undefined) {
        settings[setting] = await checkSettingValue(store, actor.realmId, setting, simplify(given, nobodyId));
        continue;
      }
      const fallback = SETTING_CONFIG[setting].defaultValue;
      settings[setting] =
        fallback === 'creator' ? anonymous([actor.userId], []) : await systemGroupId(store, actor.realmId, fallback);
    }
    if (await store.groupByName(actor.realmId, name)) throw nameTaken(name);
    const group = await store.createGroup({
      realmId: actor.realmId,
      name,
      description: input.description,
      isSystemGroup: false,
      creatorId: actor.userId,
      settings,
    });
    await store.addMembers(group.id, [...users.keys()]);
    const subgroupIds = [...new Set(input.subgroups ?? [])];
    if (subgroupIds.length > 0) {
      const found = new Map((await store.groups(actor.realmId, subgroupIds)).map((g) => [g.id, g]));
      const missing = subgroupIds.find((id) => !found.has(id));
      if (missing !== undefined) throw invalid(`Invalid user group ID: ${missing}`);
      if ([...found.values()].some((g) => g.deactivated)) throw groupDeactivated();
      await store.addSubgroups(group.id, subgroupIds);
    }
    const [view] = await viewsOf(store, [group]);
    const flattened = (await store.recursiveMembers([group.id])).get(group.id) ?? [];
    const event = outboxRecord(
      contracts.groupCreated,
      {
        group: groupRecord(view!),
        direct_members: view!.members,
        direct_subgroups: view!.subgroups,
        flattened: [{ group_id: group.id, members: flattened }],
      },
      meta,
    );
    return { result: group.id, events: [event] };
  });
}

export interface UpdateGroupInput {
  name?: string | undefined;
  description?: string | undefined;
  deactivated?: boolean | undefined;
  settings: Partial<Record<SettingName, { new: SettingValue; old?: SettingValue | undefined }>>;
}

/** PATCH /user_groups/{user_group_id}: compare-and-set on each setting, all or nothing. */
export async function updateGroup(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  input: UpdateGroupInput,
  requestId?: string,
): Promise<void> {
  requireNonGuest(actor);
  const settingsGiven = SETTING_NAMES.filter((s) => input.settings[s] !== undefined);
  if (
    input.name === undefined &&
    input.description === undefined &&
    input.deactivated === undefined &&
    settingsGiven.length === 0
  ) {
    throw invalid('No new data supplied');
  }
  await db.write(actor.realmId, async (store) => {
    // Writes to one organization are serialized (GroupsDatabase.write), so `old` is compared with the committed value.
    const group = await groupForUpdate(store, actor, groupId, 'can_manage_group', { allowDeactivated: true });
    const patch: GroupPatch = {};
    if (input.name !== undefined && input.name !== group.name) {
      patch.name = checkGroupName(input.name);
      if (await store.groupByName(actor.realmId, patch.name)) throw nameTaken(patch.name);
    }
    if (input.description !== undefined && input.description !== group.description)
      patch.description = input.description;
    if (input.deactivated === false && group.deactivated) patch.deactivated = false;
    const [current] = await viewsOf(store, [group]);
    const nobodyId = await systemGroupId(store, actor.realmId, NOBODY);
    const settings: Partial<GroupSettings> = {};
    for (const setting of settingsGiven) {
      const change = input.settings[setting]!;
      const wanted = simplify(change.new, nobodyId);
      const now = current!.settings[setting];
      if (change.old !== undefined && !sameValue(simplify(change.old, nobodyId), now)) throw oldValueMismatch();
      if (sameValue(now, wanted)) continue;
      settings[setting] = await checkSettingValue(store, actor.realmId, setting, wanted);
    }
    if (Object.keys(settings).length > 0) patch.settings = settings;
    if (Object.keys(patch).length === 0) return { result: undefined, events: [] };
    const updated = await store.updateGroup(group.id, patch);
    const [view] = await viewsOf(store, [updated]);
    return {
      result: undefined,
      events: [
        outboxRecord(contracts.groupUpdated, { group: groupRecord(view!) }, { realmId: actor.realmId, requestId }),
      ],
    };
  });
}

interface Objection {
  type: string;
  [key: string]: unknown;
}

/** What still uses the group, as Zulip's access_user_group_for_deactivation lists it (channels live in messaging). */
async function objectionsTo(store: GroupStore, group: Group): Promise<Objection[]> {
  const objections: Objection[] = [];
  const supergroupIds = await store.directSupergroups(group.id);
  const activeSupergroups = (await store.groups(group.realmId, supergroupIds)).filter((g) => !g.deactivated);
  if (activeSupergroups.length > 0) {
    objections.push({ type: 'subgroup', supergroup_ids: activeSupergroups.map((g) => g.id).sort((a, b) => a - b) });
  }
  for (const other of await store.groupsInRealm(group.realmId, { includeDeactivated: false })) {
    const settings = SETTING_NAMES.filter((s) => valueUsesGroup(other.settings[s], group.id));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realm = await store.realm(group.realmId);
  const realmSettings: string[] = [];
  for (const [setting, ref] of Object.entries(realm?.permissions ?? {})) {
    if ((await resolveRealmPermission(store, group.realmId, ref)) === group.id) realmSettings.push(setting);
  }
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings.sort() });
  return objections;
}

/** POST /user_groups/{user_group_id}/deactivate: refused while anything uses the group. */
export async function deactivateGroup(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  requestId?: string,
): Promise<void> {
  await db.write(actor.realmId, async (store) => {
    const group = await groupForUpdate(store, actor, groupId, 'can_manage_group', { allowDeactivated: false });
    const objections = await objectionsTo(store, group);
    if (objections.length > 0) {
      throw new ConfabError('Cannot deactivate user group in use.', {
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        data: { objections },
      });
    }
    const updated = await store.updateGroup(group.id, { deactivated: true });
    const [view] = await viewsOf(store, [updated]);
    return {
      result: undefined,
      events: [
        outboxRecord(contracts.groupUpdated, { group: groupRecord(view!) }, { realmId: actor.realmId, requestId }),
      ],
    };
  });
}

/** GET /user_groups/{user_group_id}/members. */
export async function groupMembers(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  directOnly: boolean,
): Promise<number[]> {
  requireMemberOrAdmin(actor);
  return db.read(async (store) => {
    const group = await groupInRealm(store, actor, groupId, false);
    const members = directOnly ? await store.directMembers([group.id]) : await store.recursiveMembers([group.id]);
    return members.get(group.id) ?? [];
  });
}

/** GET /user_groups/{user_group_id}/members/{user_id}. */
export async function isGroupMember(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  userId: number,
  directOnly: boolean,
): Promise<boolean> {
  requireMemberOrAdmin(actor);
  return db.read(async (store) => {
    const group = await groupInRealm(store, actor, groupId, false);
    const [user] = await store.users(actor.realmId, [userId]);
    if (!user || user.isBot) throw invalid('No such user');
    if (!user.isActive) throw invalid('User is deactivated');
    if (!directOnly) return store.isRecursiveMember(group.id, user.id);
    return ((await store.directMembers([group.id])).get(group.id) ?? []).includes(user.id);
  });
}

/** GET /user_groups/{user_group_id}/subgroups. */
export async function groupSubgroups(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  directOnly: boolean,
): Promise<number[]> {
  requireMemberOrAdmin(actor);
  return db.read(async (store) => {
    const group = await groupInRealm(store, actor, groupId, false);
    if (directOnly) return (await store.directSubgroups([group.id])).get(group.id) ?? [];
    const all = await store.recursiveSubgroups([group.id]);
    return all.filter((id) => id !== group.id).sort((a, b) => a - b);
  });
}
