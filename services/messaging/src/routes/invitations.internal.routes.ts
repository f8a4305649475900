import { serviceUnavailable } from '@confab/errors';
import { internal } from '@confab/events';
import { internalRoute } from '@confab/http';
import type { UserIdentity } from '@confab/identity';
import type { MessagingDeps } from '../deps.js';
import { actorFor } from '../domain/actor.js';
import { checkInvitationChannels, subscribeInvitedUser } from '../domain/invitation-channels.js';
import { sendMessage } from '../domain/send.js';

/*
 * What the invitations service needs from messaging (services/invitations/README.md): checking the channels of a new
 * invitation link as its creator, subscribing the person who joined through it, and the welcome message.
 */

function identity(realmId: number, userId: number, userRole: UserIdentity['role'], isBot: boolean): UserIdentity {
  return { kind: 'user', userId, realmId, role: userRole, email: '', isBot };
}

/** Routes the invitations service calls; never reachable through the gateway. */
export function invitationInternalRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    internalRoute(internal.endpoints.checkInvitationChannels, async (input, { requestId }) => {
      const creator = identity(input.realm_id, input.user_id, input.role, input.is_bot);
      await checkInvitationChannels(domain, await actorFor(domain, creator, requestId), input.stream_ids);
      return {};
    }),
    internalRoute(internal.endpoints.subscribeInvitedUser, async (input, { requestId }) => {
      const actor = await actorFor(domain, identity(input.realm_id, input.user_id, 400, false), requestId);
      const ids = await subscribeInvitedUser(
        domain,
        actor,
        input.stream_ids,
        input.include_realm_default_subscriptions,
      );
      return { subscribed_stream_ids: ids };
    }),
    internalRoute(internal.endpoints.sendWelcome, async (input, { requestId }) => {
      let actor = await actorFor(domain, identity(input.realm_id, input.sender_id, 400, false), requestId);
      if (input.from_notification_bot) {
        const bot = await domain.readModel.notificationBot(input.realm_id);
        if (!bot) throw serviceUnavailable();
        actor = { ...actor, user: bot };
      }
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
    }),
  ];
}
