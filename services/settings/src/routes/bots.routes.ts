import { p, route, t } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { createBot, deactivateBot, listOwnBots, updateBot } from '../domain/bots.js';
import { avatarUrl } from '../domain/users.js';

/** /bots: generic, incoming and outgoing webhook bots, as Zulip's web app manages them. */
export function botRoutes(deps: SettingsDeps) {
  const ctx = { db: deps.db, groups: deps.groups, externalUrl: deps.config.externalUrl };
  return [
    route({
      method: 'GET',
      path: '/bots',
      auth: 'user',
      async handler({ identity }) {
        return { bots: await listOwnBots(deps.db, identity) };
      },
    }),
    route({
      method: 'POST',
      path: '/bots',
      auth: 'user',
      params: {
        full_name: p.string(),
        short_name: p.string(),
        bot_type: p.json(t.int()).default(1),
        payload_url: p.json(t.string()).optional(),
        interface_type: p.json(t.int()).default(1),
      },
      async handler({ identity, params, requestId }) {
        const { bot, apiKey } = await createBot(
          ctx,
          identity,
          {
            fullName: params.full_name,
            shortName: params.short_name,
            botType: params.bot_type,
            payloadUrl: params.payload_url,
            interfaceType: params.interface_type,
          },
          requestId,
        );
        return {
          user_id: bot.id,
          api_key: apiKey,
          avatar_url: avatarUrl(bot),
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
        };
      },
    }),
    route({
      method: 'PATCH',
      path: '/bots/{bot_id:int}',
      auth: 'user',
      params: {
        full_name: p.string().optional(),
        bot_owner_id: p.json(t.int()).optional(),
        service_payload_url: p.json(t.string()).optional(),
        service_interface: p.json(t.int()).optional(),
      },
      async handler({ identity, path, params, requestId }) {
        return updateBot(
          ctx,
          identity,
          path.bot_id,
          {
            fullName: params.full_name,
            botOwnerId: params.bot_owner_id,
            serviceUrl: params.service_payload_url,
            serviceInterface: params.service_interface,
          },
          requestId,
        );
      },
    }),
    route({
      method: 'DELETE',
      path: '/bots/{bot_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateBot(ctx, identity, path.bot_id, requestId);
        return {};
      },
    }),
  ];
}
