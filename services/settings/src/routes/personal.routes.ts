import { ParamIssue, p, route, t, type Schema } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { addAlertWords, listAlertWords, removeAlertWords } from '../domain/alert-words.js';
import { getBotStorage, putBotStorage, removeBotStorage } from '../domain/bot-storage.js';
import { muteUser, unmuteUser } from '../domain/muted-users.js';

/** A JSON object of strings (bot storage), refused with Zulip's message at the first value that is not one. */
const stringDict: Schema<Record<string, string>> = {
  parse(value, loc) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParamIssue('dict_type', loc);
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      if (typeof entry !== 'string') throw new ParamIssue('string_type', [...loc, key]);
    }
    return value as Record<string, string>;
  },
};

/** Muted users, alert words and bot storage: each user's (or bot's) own lists. */
export function personalRoutes(deps: SettingsDeps) {
  const { db } = deps;
  return [
    route({
      method: 'POST',
      path: '/users/me/muted_users/{muted_user_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await muteUser(db, identity, path.muted_user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me/muted_users/{muted_user_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await unmuteUser(db, identity, path.muted_user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/users/me/alert_words',
      auth: 'user',
      async handler({ identity }) {
        return { alert_words: await listAlertWords(db, identity.userId) };
      },
    }),
    route({
      method: 'POST',
      path: '/users/me/alert_words',
      auth: 'user',
      params: { alert_words: p.json(t.list(t.string({ maxLength: 100 }))) },
      async handler({ identity, params, requestId }) {
        return { alert_words: await addAlertWords(db, identity, params.alert_words, requestId) };
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me/alert_words',
      auth: 'user',
      params: { alert_words: p.json(t.list(t.string())) },
      async handler({ identity, params, requestId }) {
        return { alert_words: await removeAlertWords(db, identity, params.alert_words, requestId) };
      },
    }),
    route({
      method: 'GET',
      path: '/bot_storage',
      auth: 'user',
      params: { keys: p.json(t.list(t.string())).optional() },
      async handler({ identity, params }) {
        return { storage: await getBotStorage(db, identity, params.keys) };
      },
    }),
    route({
      method: 'PUT',
      path: '/bot_storage',
      auth: 'user',
      params: { storage: p.json(stringDict) },
      async handler({ identity, params }) {
        await putBotStorage(db, identity, params.storage);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/bot_storage',
      auth: 'user',
      params: { keys: p.json(t.list(t.string())).optional() },
      async handler({ identity, params }) {
        await removeBotStorage(db, identity, params.keys);
        return {};
      },
    }),
  ];
}
