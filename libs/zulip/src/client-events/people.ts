/** The events about people: accounts, presence, status, user groups and bots. */
import type { GroupSettingValue, PersonDict, PersonUpdate, UserGroupDict, UserStatusDict } from './records.js';

export type RealmUserEvent =
  { type: 'realm_user'; op: 'add'; person: PersonDict } | { type: 'realm_user'; op: 'update'; person: PersonUpdate };

/** By client name (`website`). */
type LegacyPresence = Record<
  string,
  { client: string; status: 'active' | 'idle'; timestamp: number; pushable: boolean }
>;

/** The modern form (simplified_presence_events), or the legacy one-client form (with the email unless slim). */
export type PresenceEvent =
  | { type: 'presence'; presences: Record<string, { active_timestamp: number; idle_timestamp: number }> }
  | { type: 'presence'; user_id: number; email?: string; server_timestamp: number; presence: LegacyPresence };

export interface UserStatusEvent extends UserStatusDict {
  type: 'user_status';
  user_id: number;
}

/** The fields of a group a user_group update carries (only the changed ones). */
export interface UserGroupChanges {
  name?: string;
  description?: string;
  deactivated?: boolean;
  can_add_members_group?: GroupSettingValue;
  can_join_group?: GroupSettingValue;
  can_leave_group?: GroupSettingValue;
  can_manage_group?: GroupSettingValue;
  can_mention_group?: GroupSettingValue;
  can_remove_members_group?: GroupSettingValue;
}

export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: UserGroupDict }
  | { type: 'user_group'; op: 'update'; group_id: number; data: UserGroupChanges }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** Zulip's bot dictionary: whole for `add`, the user id and the changed fields for `update`. */
export interface RealmBotEvent {
  type: 'realm_bot';
  op: 'add' | 'update' | 'delete';
  bot: Record<string, unknown>;
}

export type PeopleEvents = RealmUserEvent | PresenceEvent | UserStatusEvent | UserGroupEvent | RealmBotEvent;
