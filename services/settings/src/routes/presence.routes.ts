import { p, route, type ParamValues } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { realmPresence, updatePresence, userPresence } from '../domain/presence.js';
import { getUserStatus, updateStatusForUser, updateUserStatus, type StatusChange } from '../domain/user-status.js';

/** What POST /users/me/status and an administrator's POST /users/{user_id}/status both take. */
const STATUS_PARAMS = {
  status_text: p.string({ strip: true, maxLength: 60 }).optional(),
  emoji_name: p.string().optional(),
  emoji_code: p.string().optional(),
  reaction_type: p.string().optional(),
};

function statusChange(params: ParamValues<typeof STATUS_PARAMS>): Omit<StatusChange, 'away'> {
  return {
    statusText: params.status_text,
    emojiName: params.emoji_name,
    emojiCode: params.emoji_code,
    reactionType: params.reaction_type,
  };
}

/** Presence and user status (Zulip's views/presence.py). */
export function presenceRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'POST',
      path: '/users/me/presence',
      auth: 'human',
      params: {
        status: p.string(),
        ping_only: p.bool().default(false),
        // Zulip records it for its activity statistics, which Confab does not keep.
        new_user_input: p.bool().default(false),
        slim_presence: p.bool().default(false),
        last_update_id: p.int().optional(),
        history_limit_days: p.int().optional(),
      },
      handler: ({ identity, params, requestId }) =>
        updatePresence(
          deps,
          identity,
          {
            status: params.status,
            pingOnly: params.ping_only,
            lastUpdateId: params.last_update_id,
            historyLimitDays: params.history_limit_days,
            slimPresence: params.slim_presence,
          },
          requestId,
        ),
    }),
    route({
      method: 'GET',
      path: '/realm/presence',
      auth: 'user',
      handler: ({ identity }) => realmPresence(deps, identity),
    }),
    route({
      method: 'GET',
      path: '/users/{user_id_or_email:str}/presence',
      auth: 'user',
      params: { slim_presence: p.bool().default(false) },
      handler: ({ identity, path, params }) =>
        userPresence(deps, identity, path.user_id_or_email, params.slim_presence),
    }),
    route({
      method: 'POST',
      path: '/users/{user_id:int}/status',
      auth: 'user',
      params: STATUS_PARAMS,
      async handler({ identity, path, params, requestId }) {
        await updateStatusForUser(deps, identity, path.user_id, statusChange(params), requestId);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/users/me/status',
      auth: 'human',
      params: { away: p.bool().optional(), ...STATUS_PARAMS },
      async handler({ identity, params, requestId }) {
        await updateUserStatus(deps, identity, { away: params.away, ...statusChange(params) }, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/users/{user_id:int}/status',
      auth: 'user',
      async handler({ identity, path }) {
        return { status: await getUserStatus(deps.db, identity, path.user_id) };
      },
    }),
  ];
}
