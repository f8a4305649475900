import { route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { SETTINGS, type SettingValue } from '../domain/settings-catalog.js';
import { changeSettings, type TargetUsers } from '../domain/user-settings.js';
import { SETTINGS_PARAMS } from './settings.params.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** PATCH /settings, and Zulip's legacy aliases of it from before the endpoints were merged (python `zulip` 0.9.1's
 * update_notification_settings still calls /settings/notifications). */
const PATHS = ['/settings', '/settings/display', '/settings/notifications'];

export function settingsRoutes(deps: SettingsDeps) {
  return PATHS.map((path) =>
    route({
      method: 'PATCH',
      path,
      auth: 'human',
      params: SETTINGS_PARAMS,
      async handler({ identity, params, requestId }) {
        const settings: Record<string, SettingValue> = {};
        for (const spec of SETTINGS) {
          const value = params[spec.name];
          if (value !== undefined) settings[spec.name] = value as SettingValue;
        }
        await changeSettings(
          deps,
          identity,
          {
            fullName: text(params.full_name),
            email: text(params.email),
            oldPassword: text(params.old_password),
            newPassword: text(params.new_password),
            timezone: text(params.timezone),
            emailAddressVisibility: params.email_address_visibility as number | undefined,
            targetUsers: params.target_users as TargetUsers | undefined,
            settings,
          },
          requestId,
        );
        return {};
      },
    }),
  );
}
