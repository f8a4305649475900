/**
 * The bots one manages and the organization's user groups (for the bot creation policy): /register's `realm_bots`
 * and `realm_user_groups`, kept current by `realm_bot` and `user_group` events. Part of the one client store
 * (store/store.ts hands /register and these events over), small on purpose: the page that shows them is a chunk of its
 * own (bots.tsx), loaded when someone opens it.
 */
import { assertNever, type RealmBotEvent, type UserGroupEvent } from '@confab/zulip';
import { signal } from '@preact/signals';
import type { GroupMembers } from './model';
import type { RegisterState } from './register-state';

/** Zulip's bot dictionary (realm_bots, realm_bot events). */
export interface Bot {
  user_id: number;
  email: string;
  full_name: string;
  bot_type: number;
  is_active: boolean;
  api_key: string;
  owner_id: number | null;
}

export const BOT_TYPE_INCOMING_WEBHOOK = 2;

/** The bots one owns (all of the organization's for administrators), by id. */
export const bots = signal(new Map<number, Bot>());
/** A user group as kept here: its members and subgroups, and what the compose box's @ completion shows. */
export interface StoredGroup extends GroupMembers {
  name?: string;
  description?: string;
  is_system_group?: boolean;
  deactivated?: boolean;
}

/** The organization's user groups, by id. */
export const userGroups = signal(new Map<number, StoredGroup>());

interface GroupRecord extends StoredGroup {
  id: number;
}

const stored = (g: GroupRecord): StoredGroup => ({
  members: g.members ?? [],
  direct_subgroup_ids: g.direct_subgroup_ids ?? [],
  name: g.name,
  description: g.description,
  is_system_group: g.is_system_group,
  deactivated: g.deactivated,
});

export function applyIntegrationsRegister(state: RegisterState): void {
  const list = state.realm_bots ?? [];
  bots.value = new Map(list.map((bot) => [bot.user_id, bot]));
  const groups = state.realm_user_groups ?? [];
  userGroups.value = new Map(groups.map((g) => [g.id, stored(g)]));
}

/** A bot's new fields, as an answer or an event gives them (POST /bots, a regenerated key, realm_bot update). */
export function updateBot(bot: Partial<Bot> & { user_id: number }): void {
  const before = bots.value.get(bot.user_id);
  bots.value = new Map(bots.value).set(bot.user_id, { ...(before as Bot), ...bot });
}

const without = (list: readonly number[], gone: readonly number[]) => list.filter((id) => !gone.includes(id));

function changeGroup(id: number, change: (group: StoredGroup) => StoredGroup): void {
  const group = userGroups.value.get(id);
  if (group) userGroups.value = new Map(userGroups.value).set(id, change(group));
}

/** Zulip's bot dictionary is a record in the event contract: the fields kept here, by their types. */
function botFields(bot: Record<string, unknown>): (Partial<Bot> & { user_id: number }) | null {
  if (typeof bot.user_id !== 'number') return null;
  const fields: Partial<Bot> & { user_id: number } = { user_id: bot.user_id };
  for (const key of ['email', 'full_name', 'api_key'] as const) {
    const value = bot[key];
    if (typeof value === 'string') fields[key] = value;
  }
  if (typeof bot.bot_type === 'number') fields.bot_type = bot.bot_type;
  if (typeof bot.is_active === 'boolean') fields.is_active = bot.is_active;
  if (typeof bot.owner_id === 'number' || bot.owner_id === null) fields.owner_id = bot.owner_id;
  return fields;
}

export function onRealmBot(event: RealmBotEvent): void {
  const bot = botFields(event.bot);
  if (!bot) return;
  switch (event.op) {
    case 'add':
    case 'update':
      updateBot(bot);
      return;
    case 'delete': {
      const next = new Map(bots.value);
      next.delete(bot.user_id);
      bots.value = next;
      return;
    }
    default:
      assertNever(event.op);
  }
}

export function onUserGroup(event: UserGroupEvent): void {
  switch (event.op) {
    case 'add':
      userGroups.value = new Map(userGroups.value).set(event.group.id, stored(event.group));
      return;
    case 'update': {
      // Zulip's update carries the changed fields in `data` (name, description, deactivated).
      const { name, description, deactivated } = event.data;
      changeGroup(event.group_id, (g) => ({
        ...g,
        ...(name !== undefined && { name }),
        ...(description !== undefined && { description }),
        ...(deactivated !== undefined && { deactivated }),
      }));
      return;
    }
    case 'add_members':
      changeGroup(event.group_id, (g) => ({ ...g, members: [...g.members, ...event.user_ids] }));
      return;
    case 'remove_members':
      changeGroup(event.group_id, (g) => ({ ...g, members: without(g.members, event.user_ids) }));
      return;
    case 'add_subgroups':
      changeGroup(event.group_id, (g) => ({
        ...g,
        direct_subgroup_ids: [...g.direct_subgroup_ids, ...event.direct_subgroup_ids],
      }));
      return;
    case 'remove_subgroups':
      changeGroup(event.group_id, (g) => ({
        ...g,
        direct_subgroup_ids: without(g.direct_subgroup_ids, event.direct_subgroup_ids),
      }));
      return;
    case 'remove': {
      const next = new Map(userGroups.value);
      next.delete(event.group_id);
      userGroups.value = next;
      return;
    }
    default:
      assertNever(event);
  }
}

/** The events of this part of the store. */
export function applyIntegrationsEvent(event: RealmBotEvent | UserGroupEvent): void {
  switch (event.type) {
    case 'realm_bot':
      return onRealmBot(event);
    case 'user_group':
      return onUserGroup(event);
    default:
      assertNever(event);
  }
}
