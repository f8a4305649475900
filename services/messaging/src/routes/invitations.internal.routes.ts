import { parseValue, route, t } from '@confab/http';
import type { UserIdentity } from '@confab/identity';
import type { MessagingDeps } from '../deps.js';
import { actorFor } from '../domain/actor.js';
import { checkInvitationChannels, subscribeInvitedUser } from '../domain/invitation-channels.js';
import { sendMessage } from '../domain/send.js';

/*
 * What the invitations service needs from messaging (services/invitations/README.md): checking the channels of a new
 * invitation link as its creator, subscribing the person who joined through it, and the welcome message.
 */

const role = t.literal(100, 200, 300, 400, 600);
const checkBody = t.object({
  realm_id: t.int(),
  user_id: t.int(),
  role,
  is_bot: t.bool(),
  stream_ids: t.list(t.int()),
});
const subscribeBody = t.object({
  realm_id: t.int(),
  user_id: t.int(),
  stream_ids: t.list(t.int()),
  include_realm_default_subscriptions: t.bool(),
});
const welcomeBody = t.object({
  realm_id: t.int(),
  sender_id: t.int(),
  recipient_id: t.int(),
  content: t.string(),
});

function identity(realmId: number, userId: number, userRole: UserIdentity['role'], isBot: boolean): UserIdentity {
  return { kind: 'user', userId, realmId, role: userRole, email: '', isBot };
}

/** Routes the invitations service calls; never reachable through the gateway. */
export function invitationInternalRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/invitations/streams/check',
      auth: 'service',
      json: true,
      async handler({ body, requestId }) {
        const input = parseValue(checkBody, body.json, 'body');
        const actor = await actorFor(
          domain,
          identity(input.realm_id, input.user_id, input.role, input.is_bot),
          requestId,
        );
        await checkInvitationChannels(domain, actor, input.stream_ids);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/invitations/streams/subscribe',
      auth: 'service',
      json: true,
      async handler({ body, requestId }) {
        const input = parseValue(subscribeBody, body.json, 'body');
        const actor = await actorFor(domain, identity(input.realm_id, input.user_id, 400, false), requestId);
        // Confab has no default channels yet, so include_realm_default_subscriptions adds none.
        const subscribed = await subscribeInvitedUser(domain, actor, input.stream_ids);
        return { subscribed_stream_ids: subscribed };
      },
    }),
    route({
      method: 'POST',
      path: '/invitations/welcome',
      auth: 'service',
      json: true,
      async handler({ body, requestId }) {
        const input = parseValue(welcomeBody, body.json, 'body');
        const actor = await actorFor(domain, identity(input.realm_id, input.sender_id, 400, false), requestId);
        const sent = await sendMessage(domain, actor, {
          type: 'direct',
          to: JSON.stringify([input.recipient_id]),
          topic: undefined,
          content: input.content,
          queueId: undefined,
          localId: undefined,
          readBySender: undefined,
          client: 'Internal',
        });
        return { id: sent.id };
      },
    }),
  ];
}
