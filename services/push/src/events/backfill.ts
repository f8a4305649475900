import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import { retryInBackground } from '@confab/runtime';
import type { NotificationStore } from '../domain/message-notifications.js';
import { notificationSettingsFrom } from '../domain/notification-rules.js';

/**
 * Fills an empty copy of users' notification settings from the settings service, page by page; changes come as
 * user_settings.changed. Never overwrites a row an event wrote meanwhile. Retries while settings is unreachable.
 */
export function startSettingsBackfill(
  store: NotificationStore,
  settingsUrl: string,
  secret: string,
  log: Logger,
): { stop(): void } {
  const client = new ServiceClient({ caller: 'push', baseUrl: settingsUrl, secret });
  const run = async (stopped: () => boolean) => {
    if (await store.hasSettings()) return;
    let users = 0;
    for (let after = 0; !stopped();) {
      const page = await client.call('GET', '/user_settings', internal.userSettingsPage, {
        query: { after_id: after },
      });
      if (page.user_settings.length === 0) break;
      await store.addMissingSettings(
        page.user_settings.map((u) => ({
          userId: u.user_id,
          realmId: u.realm_id,
          settings: notificationSettingsFrom(u.settings),
        })),
      );
      users += page.user_settings.length;
      after = page.user_settings[page.user_settings.length - 1]!.user_id;
    }
    if (users > 0) log.info({ users }, 'backfilled notification settings from the settings service');
  };
  return retryInBackground(run, log, 'settings backfill');
}
