import type { GroupRef as ModelGroupRef } from '@confab/porting';
import { REALM_COLUMNS } from './realm-settings.js';
import { REALM_SETTING_DEFAULTS } from './realm-setting-defaults.js';
import { SETTINGS_BY_NAME } from './settings-catalog.js';
import type { GroupRef, RealmPatch } from './types.js';

/**
 * What an imported organization's settings become here (docs/architecture.md, "Moving organizations in and out"):
 * Zulip's setting names map to the columns and the stored-by-name map as PATCH /realm would store them; names this
 * server does not keep are reported, not guessed at.
 */

/** Zulip's channel-valued realm fields (export names) and the settings holding them here. */
const CHANNEL_FIELDS: Record<string, string> = {
  new_stream_announcements_stream: 'new_stream_announcements_stream_id',
  signup_announcements_stream: 'signup_announcements_stream_id',
  zulip_update_announcements_stream: 'zulip_update_announcements_stream_id',
  moderation_request_channel: 'moderation_request_channel_id',
};

const TIME_LIMIT_COLUMNS = new Set([
  'message_content_delete_limit_seconds',
  'message_content_edit_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
]);

/** A group-setting value of the import as stored here: a system group by name or a group's id. */
export function storedGroupRef(ref: ModelGroupRef): GroupRef | null {
  if ('system' in ref) return ref.system;
  if ('group' in ref) return ref.group;
  // Anonymous groups: only the shapes this server stores (nobody, or exactly one group).
  const subgroups = [...ref.subgroups, ...(ref.systemSubgroups ?? [])];
  if (ref.members.length === 0 && subgroups.length === 0) return 'role:nobody';
  if (ref.members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  return null;
}

/** The organization's settings as a patch of the new organization; `skipped` names what could not be kept. */
export function importedRealmPatch(realm: {
  settings: Record<string, unknown>;
  userSettingsDefaults: Record<string, unknown>;
  permissions: Record<string, ModelGroupRef>;
  channelSettings: Record<string, number | null>;
  description: string;
}): { patch: RealmPatch; skipped: string[] } {
  const patch: RealmPatch = { description: realm.description };
  const settings: Record<string, unknown> = {};
  const skipped: string[] = [];
  const patchAny = patch as Record<string, unknown>;
  for (const [name, value] of Object.entries(realm.settings)) {
    const column = REALM_COLUMNS[name];
    if (column && name !== 'name' && name !== 'description') {
      if (name === 'message_retention_days') patchAny[column] = typeof value === 'number' && value > 0 ? value : null;
      else if (TIME_LIMIT_COLUMNS.has(name)) patchAny[column] = typeof value === 'number' && value > 0 ? value : null;
      else if (typeof value === 'boolean' || typeof value === 'number') patchAny[column] = value;
      continue;
    }
    if (name in REALM_SETTING_DEFAULTS) {
      const fallback = REALM_SETTING_DEFAULTS[name];
      if (fallback === null || typeof value === typeof fallback) settings[name] = value;
      else skipped.push(name);
    }
  }
  for (const [field, channelId] of Object.entries(realm.channelSettings)) {
    const name = CHANNEL_FIELDS[field];
    if (name) settings[name] = channelId ?? -1;
  }
  const permissions: Record<string, GroupRef> = {};
  for (const [name, ref] of Object.entries(realm.permissions)) {
    const stored = storedGroupRef(ref);
    if (stored === null) skipped.push(name);
    else permissions[name] = stored;
  }
  const userDefaults = importedUserSettings(realm.userSettingsDefaults);
  if (typeof realm.userSettingsDefaults.email_address_visibility === 'number')
    userDefaults.email_address_visibility = realm.userSettingsDefaults.email_address_visibility;
  return {
    patch: { ...patch, settings, permissions, userSettingsDefaults: userDefaults },
    skipped,
  };
}

/** Personal settings of the import that this server keeps (by name, of the right type). */
export function importedUserSettings(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const spec = SETTINGS_BY_NAME.get(name);
    if (!spec || typeof value !== typeof spec.default) continue;
    if (spec.kind.type === 'int' && spec.kind.choices && !spec.kind.choices.includes(value as number)) continue;
    if (spec.kind.type === 'str' && spec.kind.choices && !spec.kind.choices.includes(value as string)) continue;
    if (value !== spec.default) out[name] = value;
  }
  return out;
}
