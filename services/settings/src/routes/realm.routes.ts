import { route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { addRealmEmoji, deactivateRealmEmoji, listRealmEmoji } from '../domain/realm-emoji.js';

/** Organization data every member reads: custom emoji, custom profile fields and linkifiers. */
export function realmRoutes(deps: SettingsDeps) {
  return [
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
