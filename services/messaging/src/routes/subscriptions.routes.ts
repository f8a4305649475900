import { p, route, t } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { listSubscriptions } from '../domain/channel-queries.js';
import { subscribeToChannels } from '../domain/channels.js';
import { unsubscribeFromChannels } from '../domain/unsubscribe.js';
import { updateSubscriptionProperties } from '../domain/subscription-properties.js';
import type { MessagingDeps } from '../deps.js';
import { newChannelParams, newChannelSettings } from './channel.params.js';

const principals = p.json(t.union(t.list(t.int()), t.list(t.string()))).optional();

export function subscriptionRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/users/me/subscriptions/properties',
      auth: 'user',
      params: {
        subscription_data: p.json(
          t.list(t.object({ stream_id: t.int(), property: t.string(), value: { parse: (value: unknown) => value } })),
        ),
      },
      async handler({ identity, params, requestId }) {
        await updateSubscriptionProperties(
          domain,
          await actorFor(domain, identity, requestId),
          params.subscription_data,
        );
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: { include_subscribers: p.bool().default(false) },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        return { subscriptions: await listSubscriptions(domain, actor, params.include_subscribers) };
      },
    }),
    route({
      method: 'POST',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: {
        subscriptions: p.json(
          t.list(
            t.object({
              name: t.string(),
              description: t.optional(t.string({ maxLength: 1024 })),
              color: t.optional(t.string()),
            }),
          ),
        ),
        principals,
        authorization_errors_fatal: p.bool().default(true),
        ...newChannelParams,
      },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        const result = await subscribeToChannels(domain, actor, {
          subscriptions: params.subscriptions,
          principals: params.principals,
          authorizationErrorsFatal: params.authorization_errors_fatal,
          settings: newChannelSettings(params),
        });
        // Confab sends no Notification Bot messages about new subscriptions.
        if (params.send_new_subscription_messages === true) result.new_subscription_messages_sent = false;
        return result;
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: { subscriptions: p.json(t.list(t.string())), principals },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        return unsubscribeFromChannels(domain, actor, { names: params.subscriptions, principals: params.principals });
      },
    }),
  ];
}
