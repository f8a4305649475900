import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { realmSetting } from './realm-setting-defaults.js';
import { EMOJISETS, resolveSettings, SETTINGS, type SettingValue } from './settings-catalog.js';
import type { Database } from './store.js';
import type { Realm } from './types.js';
import { availableNotificationSounds, checkSettingValues } from './validators.js';

/** Zulip's email_address_visibility values (1 everyone … 5 nobody; email-visibility.ts says who sees what). */
export const EMAIL_ADDRESS_VISIBILITY_CHOICES = [1, 2, 3, 4, 5];

/**
 * The email_address_visibility new people start with: the organization's choice in its user settings defaults,
 * else the default it was created with.
 */
export function newUserEmailVisibility(realm: Realm): number {
  const chosen = realm.userSettingsDefaults.email_address_visibility;
  return typeof chosen === 'number' ? chosen : realm.defaultEmailAddressVisibility;
}

/** Personal settings an organization cannot choose for its new users (security and the user's own consents). */
const NOT_DEFAULTABLE = new Set([
  'default_language',
  'enable_login_emails',
  'enable_marketing_emails',
  'allow_private_data_export',
  'web_inbox_show_channel_folders',
]);

/** The settings PATCH /realm/user_settings_defaults changes (Zulip's RealmUserDefault.property_types). */
export const DEFAULTABLE_SETTINGS = SETTINGS.filter((spec) => !NOT_DEFAULTABLE.has(spec.name));

/** `realm_user_settings_defaults` of /register: Zulip's defaults, the organization's choices over them. */
export function realmUserSettingsDefaults(realm: Realm): Record<string, unknown> {
  const resolved = resolveSettings(realm.userSettingsDefaults);
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS) if (spec.name !== 'web_inbox_show_channel_folders') out[spec.name] = resolved[spec.name];
  out.default_language = realmSetting(realm, 'default_language');
  out.email_address_visibility = newUserEmailVisibility(realm);
  out.available_notification_sounds = availableNotificationSounds();
  out.emojiset_choices = EMOJISETS.map((e) => ({ key: e.key, text: e.text }));
  return out;
}

/** What a new user's stored settings start as: what the organization chose, and its language. */
export function newUserSettings(realm: Realm): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const spec of DEFAULTABLE_SETTINGS) {
    const value = realm.userSettingsDefaults[spec.name];
    if (typeof value === typeof spec.default) values[spec.name] = value;
  }
  const language = realmSetting<string>(realm, 'default_language');
  if (language !== 'en') values.default_language = language;
  return values;
}

/**
 * PATCH /realm/user_settings_defaults (Zulip's update_realm_user_settings_defaults): administrators only; a
 * `realm_user_settings_defaults` update event per changed setting.
 */
export async function updateRealmUserSettingsDefaults(
  db: Database,
  actor: UserIdentity,
  values: Record<string, SettingValue>,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  checkSettingValues(values);
  const visibility = values.email_address_visibility;
  if (visibility !== undefined && !EMAIL_ADDRESS_VISIBILITY_CHOICES.includes(visibility as number))
    throw invalid('Invalid email_address_visibility');
  await db.write(async (store) => {
    const realm = await store.realms.lock(actor.realmId);
    if (!realm) throw invalid('No such organization');
    const current = realmUserSettingsDefaults(realm);
    const defaults = { ...realm.userSettingsDefaults };
    const changes: contracts.RealmClientChange[] = [];
    for (const [name, value] of Object.entries(values)) {
      if (current[name] === value) continue;
      defaults[name] = value;
      changes.push({ type: 'realm_user_settings_defaults', op: 'update', property: name, value });
    }
    if (changes.length === 0) return { result: undefined, events: [] };
    await store.realms.update(realm.id, { userSettingsDefaults: defaults });
    const event = outboxRecord(
      contracts.realmSettingsChanged,
      { realm_id: realm.id, changes },
      { realmId: realm.id, requestId },
    );
    return { result: undefined, events: [event] };
  });
}
