/**
 * The organization as its administrators manage it: the organization's settings (`realm_*` of /register, kept
 * current by `realm` events), its default channels, its linkifiers, its system groups (for group-valued permissions) and its deactivated accounts
 * (`realm_non_active_users`, kept current by `realm_user` updates). Part of the one client store (store.ts hands
 * /register and every event over); the pages that show it (admin.tsx) load only when an administrator opens them.
 */
import { signal } from '@preact/signals';
import type { RegisterState, ServerEvent } from '../lib/events';
import type { User } from '../store/model';

/** Organization settings by their /register name (`realm_name`, `realm_enable_read_receipts`, …). */
export const realmSettings = signal<Record<string, unknown>>({});
/** System groups (`role:members`, …) by name → id. */
export const systemGroups = signal(new Map<string, number>());
/** The channels new members join (`realm_default_streams`, then `default_streams` events): channel ids. */
export const defaultChannels = signal<number[]>([]);
/** The organization's linkifiers (`realm_linkifiers`, then `realm_linkifiers` events), in their order. */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}
export const linkifiers = signal<Linkifier[]>([]);
/** Deactivated users and bots, by id. */
export const nonActiveUsers = signal(new Map<number, User>());
/** The organization's data exports (GET /export/realm when the page opens, then `realm_export` events); null until then. */
export interface RealmExport {
  id: number;
  acting_user_id: number;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  export_type: number;
}
export const realmExports = signal<RealmExport[] | null>(null);
/** Bumped by each `invites_changed` event: the invitations page then reads GET /invites again. */
export const invitesChanged = signal(0);

interface GroupRecord {
  id: number;
  name: string;
  is_system_group: boolean;
}

export function applyAdminRegister(state: RegisterState): void {
  realmSettings.value = Object.fromEntries(Object.entries(state).filter(([key]) => key.startsWith('realm_')));
  const groups = (state.realm_user_groups as GroupRecord[] | undefined) ?? [];
  systemGroups.value = new Map(groups.filter((g) => g.is_system_group).map((g) => [g.name, g.id]));
  defaultChannels.value = (state.realm_default_streams as number[] | undefined) ?? [];
  linkifiers.value = (state.realm_linkifiers as Linkifier[] | undefined) ?? [];
  const inactive = (state.realm_non_active_users as User[] | undefined) ?? [];
  nonActiveUsers.value = new Map(inactive.map((u) => [u.user_id, { ...u, is_active: false }]));
}

/** Zulip's `realm` update events (one setting) and update_dict events (several, or the icon and logos). */
export function applyAdminEvent(event: ServerEvent): void {
  if (event.type === 'default_streams') {
    defaultChannels.value = (event.default_streams as number[] | undefined) ?? [];
  } else if (event.type === 'realm_export') {
    realmExports.value = (event.exports as RealmExport[] | undefined) ?? [];
  } else if (event.type === 'invites_changed') {
    invitesChanged.value += 1;
  } else if (event.type === 'realm_linkifiers') {
    linkifiers.value = (event.realm_linkifiers as Linkifier[] | undefined) ?? [];
  } else if (event.type === 'realm' && event.op === 'update') {
    realmSettings.value = { ...realmSettings.value, [`realm_${String(event.property)}`]: event.value };
  } else if (event.type === 'realm' && event.op === 'update_dict') {
    const data = (event.data as Record<string, unknown> | undefined) ?? {};
    const renamed = Object.entries(data).map(([key, value]) => [`realm_${key}`, value]);
    realmSettings.value = { ...realmSettings.value, ...Object.fromEntries(renamed) };
  } else if (event.type === 'realm_user' && event.op === 'update') {
    // Reactivated ones stay here (active again): the main store never knew them, so the list takes them from here.
    const person = event.person as Partial<User> & { user_id: number };
    const before = nonActiveUsers.value.get(person.user_id);
    if (before) nonActiveUsers.value = new Map(nonActiveUsers.value).set(person.user_id, { ...before, ...person });
  }
}

/** Everyone an administrator manages: the store's people, and those deactivated before this page loaded. */
export function everyone(active: Map<number, User>): User[] {
  const list = [...active.values()];
  for (const [id, user] of nonActiveUsers.value) if (!active.has(id)) list.push(user);
  return list.sort((a, b) => a.full_name.localeCompare(b.full_name));
}
