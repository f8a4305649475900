/**
 * The bots one manages and the organization's user groups (for the bot creation policy): /register's `realm_bots`
 * and `realm_user_groups`, kept current by `realm_bot` and `user_group` events. Part of the one client store
 * (store/store.ts hands /register and these events over), small on purpose: the page that shows them is a chunk of its
 * own (bots.tsx), loaded when someone opens it.
 */
import { signal } from '@preact/signals';
import type { RegisterState, ServerEvent } from '../lib/events';
import type { GroupMembers } from './logic';

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
  const list = (state.realm_bots as Bot[] | undefined) ?? [];
  bots.value = new Map(list.map((bot) => [bot.user_id, bot]));
  const groups = (state.realm_user_groups as GroupRecord[] | undefined) ?? [];
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

export function applyIntegrationsEvent(event: ServerEvent): void {
  if (event.type === 'realm_bot') {
    const bot = event.bot as Partial<Bot> & { user_id: number };
    if (event.op === 'add' || event.op === 'update') updateBot(bot);
    else if (event.op === 'delete' || event.op === 'remove') {
      const next = new Map(bots.value);
      next.delete(bot.user_id);
      bots.value = next;
    }
    return;
  }
  if (event.type !== 'user_group') return;
  const id = (event.group_id as number | undefined) ?? (event.group as GroupRecord | undefined)?.id;
  if (id === undefined) return;
  const ids = (key: string) => (event[key] as number[] | undefined) ?? [];
  switch (event.op) {
    case 'add': {
      userGroups.value = new Map(userGroups.value).set(id, stored(event.group as GroupRecord));
      break;
    }
    case 'update': {
      // Zulip's update carries the changed fields in `data` (name, description, deactivated).
      const data = (event.data as Partial<StoredGroup> | undefined) ?? {};
      const { name, description, deactivated } = data;
      changeGroup(id, (g) => ({
        ...g,
        ...(name !== undefined && { name }),
        ...(description !== undefined && { description }),
        ...(deactivated !== undefined && { deactivated }),
      }));
      break;
    }
    case 'add_members':
      changeGroup(id, (g) => ({ ...g, members: [...g.members, ...ids('user_ids')] }));
      break;
    case 'remove_members':
      changeGroup(id, (g) => ({ ...g, members: without(g.members, ids('user_ids')) }));
      break;
    case 'add_subgroups':
      changeGroup(id, (g) => ({
        ...g,
        direct_subgroup_ids: [...g.direct_subgroup_ids, ...ids('direct_subgroup_ids')],
      }));
      break;
    case 'remove_subgroups':
      changeGroup(id, (g) => ({
        ...g,
        direct_subgroup_ids: without(g.direct_subgroup_ids, ids('direct_subgroup_ids')),
      }));
      break;
    case 'remove': {
      const next = new Map(userGroups.value);
      next.delete(id);
      userGroups.value = next;
      break;
    }
  }
}
