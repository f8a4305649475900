/**
 * The organization as its administrators manage it: the organization's settings (`realm_*` of /register, kept
 * current by `realm` events), its default channels, its linkifiers, its system groups (for group-valued permissions) and its deactivated accounts
 * (`realm_non_active_users`, kept current by `realm_user` updates). Part of the one client store (store.ts hands
 * /register and every event over); the pages that show it (admin.tsx) load only when an administrator opens them.
 */
import type {
  DefaultStreamsEvent,
  InvitesChangedEvent,
  PersonUpdate,
  RealmEvent,
  RealmExportDict,
  RealmExportEvent,
  RealmLinkifiersEvent,
} from '@confab/zulip';
import { assertNever } from '@confab/zulip';
import { signal } from '@preact/signals';
import type { User } from './model';
import type { RegisterState } from './register-state';

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
export type RealmExport = RealmExportDict;
export const realmExports = signal<RealmExport[] | null>(null);
/** Bumped by each `invites_changed` event: the invitations page then reads GET /invites again. */
export const invitesChanged = signal(0);

export function applyAdminRegister(state: RegisterState): void {
  realmSettings.value = Object.fromEntries(Object.entries(state).filter(([key]) => key.startsWith('realm_')));
  const groups = state.realm_user_groups ?? [];
  systemGroups.value = new Map(groups.filter((g) => g.is_system_group).map((g) => [g.name, g.id]));
  defaultChannels.value = state.realm_default_streams ?? [];
  linkifiers.value = state.realm_linkifiers ?? [];
  const inactive = state.realm_non_active_users ?? [];
  nonActiveUsers.value = new Map(inactive.map((u) => [u.user_id, { ...u, is_active: false }]));
}

export function onDefaultStreams(event: DefaultStreamsEvent): void {
  defaultChannels.value = event.default_streams;
}

export function onRealmExport(event: RealmExportEvent): void {
  realmExports.value = event.exports;
}

export function onInvitesChanged(_event: InvitesChangedEvent): void {
  invitesChanged.value += 1;
}

export function onRealmLinkifiers(event: RealmLinkifiersEvent): void {
  linkifiers.value = event.realm_linkifiers;
}

/** Zulip's `realm` update events (one setting) and update_dict events (several, or the icon and logos). */
export function onRealm(event: RealmEvent): void {
  switch (event.op) {
    case 'update':
      realmSettings.value = { ...realmSettings.value, [`realm_${event.property}`]: event.value };
      return;
    case 'update_dict': {
      const renamed = Object.entries(event.data).map(([key, value]) => [`realm_${key}`, value]);
      realmSettings.value = { ...realmSettings.value, ...Object.fromEntries(renamed) };
      return;
    }
    default:
      assertNever(event);
  }
}

/** A realm_user update: reactivated ones stay here (active again), the main store never knew them. */
export function onNonActiveUser(person: PersonUpdate): void {
  const before = nonActiveUsers.value.get(person.user_id);
  if (before) nonActiveUsers.value = new Map(nonActiveUsers.value).set(person.user_id, { ...before, ...person });
}

/** Everyone an administrator manages: the store's people, and those deactivated before this page loaded. */
export function everyone(active: Map<number, User>): User[] {
  const list = [...active.values()];
  for (const [id, user] of nonActiveUsers.value) if (!active.has(id)) list.push(user);
  return list.sort((a, b) => a.full_name.localeCompare(b.full_name));
}
