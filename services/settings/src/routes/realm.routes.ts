import { route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { addRealmEmoji, deactivateRealmEmoji, listRealmEmoji } from '../domain/realm-emoji.js';
import { updateRealmSettings, type GroupSettingChange } from '../domain/realm-settings.js';
import { REALM_GROUP_SETTINGS, REALM_PARAMS, USER_DEFAULTS_PARAMS } from './realm.params.js';
import { updateRealmUserSettingsDefaults } from '../domain/realm-user-defaults.js';
import type { SettingValue } from '../domain/settings-catalog.js';

/** Organization data every member reads: custom emoji, custom profile fields and linkifiers. */
export function realmRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'PATCH',
      path: '/realm',
      auth: 'user',
      params: REALM_PARAMS,
      async handler({ identity, params, requestId }) {
        const values: Record<string, unknown> = {};
        const groups: Record<string, GroupSettingChange> = {};
        const groupNames = new Set(REALM_GROUP_SETTINGS);
        for (const [name, value] of Object.entries(params)) {
          if (value === undefined) continue;
          if (groupNames.has(name)) groups[name] = value as GroupSettingChange;
          else values[name] = value;
        }
        const ctx = { db: deps.db, groups: deps.groups, channels: deps.messages, externalUrl: deps.config.externalUrl };
        const { data } = await updateRealmSettings(ctx, identity, { values, groups }, requestId);
        return data;
      },
    }),
    route({
      method: 'PATCH',
      path: '/realm/user_settings_defaults',
      auth: 'user',
      params: USER_DEFAULTS_PARAMS,
      async handler({ identity, params, requestId }) {
        const values: Record<string, SettingValue> = {};
        for (const [name, value] of Object.entries(params))
          if (value !== undefined) values[name] = value as SettingValue;
        await updateRealmUserSettingsDefaults(deps.db, identity, values, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/realm/emoji',
      auth: 'user',
      async handler({ identity }) {
        return { emoji: await listRealmEmoji(deps.db, identity.realmId) };
      },
    }),
    route({
      // The name may hold anything, slashes too, so that Zulip's name rules answer for it.
      method: 'POST',
      path: '/realm/emoji/{emoji_name:path}',
      auth: 'user',
      async handler({ identity, path, body, requestId }) {
        await addRealmEmoji(deps, identity, path.emoji_name, body.files, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/emoji/{emoji_name:path}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateRealmEmoji(deps.db, identity, path.emoji_name, requestId);
        return {};
      },
    }),
    route({
      // Confab has no custom profile fields yet: the list is empty, as in a new Zulip organization.
      method: 'GET',
      path: '/realm/profile_fields',
      auth: 'user',
      handler: () => ({ custom_fields: [] }),
    }),
  ];
}
