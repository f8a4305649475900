import { isEventProcessed } from '@confab/events';
import { eventProcessedRoute, initialStateRoute, p, route, t } from '@confab/http';
import { initialState } from '../domain/initial-state.js';
import type { MessagingDeps } from '../deps.js';

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: MessagingDeps) {
  const routes = [
    eventProcessedRoute((eventId) => isEventProcessed(deps.store.db, eventId)),
    // Settings' GET /users/me: Zulip's deprecated max_message_id, read where the received messages are.
    route({
      method: 'GET',
      path: '/users/{user_id:int}/max_message_id',
      auth: 'service',
      async handler({ path }) {
        return { max_message_id: await deps.domain.messages.maxMessageId(path.user_id) };
      },
    }),
    // Settings' PATCH /realm: whether a channel an organization setting names exists (Zulip's access_stream_by_id).
    route({
      method: 'GET',
      path: '/realms/{realm_id:int}/channels/{channel_id:int}',
      auth: 'service',
      async handler({ path }) {
        const [channel] = await deps.domain.channels.channelsByIds([path.channel_id]);
        return { exists: channel !== undefined && channel.realmId === path.realm_id && !channel.isArchived };
      },
    }),
    initialStateRoute(
      {
        fetch_event_types: p.json(t.list(t.string())).optional(),
        include_subscribers: p.json(t.union(t.bool(), t.literal('partial'))).default(false),
        client_capabilities: p
          .json(
            t.object(
              {
                archived_channels: t.optional(t.bool(), false),
                linkifier_url_template: t.optional(t.bool(), false),
              },
              { extra: 'ignore' },
            ),
          )
          .default({ archived_channels: false, linkifier_url_template: false }),
      },
      (userId, params) =>
        initialState(deps.domain, userId, {
          fetchEventTypes: params.fetch_event_types,
          includeSubscribers: params.include_subscribers !== false,
          archivedChannels: params.client_capabilities.archived_channels,
          linkifierUrlTemplate: params.client_capabilities.linkifier_url_template,
        }),
    ),
  ];
  if (deps.config.devEndpoints) {
    routes.push(
      route({
        method: 'POST',
        path: '/dev/attachments/age',
        auth: 'service',
        params: { owner_id: p.int(), days: p.int({ min: 1 }) },
        async handler({ params }) {
          await deps.domain.attachments.ageAll(params.owner_id, { days: params.days });
          return {};
        },
      }),
    );
  }
  return routes;
}
