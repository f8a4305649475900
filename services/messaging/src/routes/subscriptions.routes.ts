import { p, t } from '@confab/http';
import { listSubscriptions } from '../domain/channel-queries.js';
import { subscribeToChannels } from '../domain/channels.js';
import { unsubscribeFromChannels } from '../domain/unsubscribe.js';
import { subscriptionStatus, updateSubscriptions } from '../domain/subscription-updates.js';
import { updateSubscriptionProperties } from '../domain/subscription-properties.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';
import { newChannelParams, newChannelSettings } from './channel.params.js';

const principals = p.json(t.union(t.list(t.int()), t.list(t.string()))).optional();
/** Zulip's AddSubscriptionData. */
const channelSpecs = t.list(
  t.object({
    name: t.string({ nulCheckedByDomain: true }),
    description: t.optional(t.string({ maxLength: 1024, nulCheckedByDomain: true })),
    color: t.optional(t.string()),
  }),
);

export function subscriptionRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'POST',
      path: '/users/me/subscriptions/properties',
      auth: 'user',
      params: {
        subscription_data: p.json(
          t.list(t.object({ stream_id: t.int(), property: t.string(), value: { parse: (value: unknown) => value } })),
        ),
      },
      async handler({ actor, params }) {
        await updateSubscriptionProperties(domain, actor, params.subscription_data);
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: { include_subscribers: p.bool().default(false) },
      async handler({ actor, params }) {
        return { subscriptions: await listSubscriptions(domain, actor, params.include_subscribers) };
      },
    }),
    withActor({
      method: 'POST',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: {
        subscriptions: p.json(channelSpecs),
        principals,
        authorization_errors_fatal: p.bool().default(true),
        ...newChannelParams,
      },
      async handler({ actor, params }) {
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
    withActor({
      method: 'PATCH',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: {
        add: p.json(t.nullable(channelSpecs)).optional(),
        delete: p.json(t.nullable(t.list(t.string()))).optional(),
      },
      async handler({ actor, params }) {
        return updateSubscriptions(domain, actor, { add: params.add ?? [], delete: params.delete ?? [] });
      },
    }),
    withActor({
      method: 'GET',
      path: '/users/{user_id:int}/subscriptions/{stream_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        return subscriptionStatus(domain, actor, path.user_id, path.stream_id);
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/users/me/subscriptions',
      auth: 'user',
      params: { subscriptions: p.json(t.list(t.string())), principals },
      async handler({ actor, params }) {
        return unsubscribeFromChannels(domain, actor, { names: params.subscriptions, principals: params.principals });
      },
    }),
  ];
}
