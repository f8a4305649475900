import { internal } from '@confab/events';
import { internalRoute } from '@confab/http';
import { ROLE_MEMBER, type UserIdentity } from '@confab/identity';
import type { MessagingDeps } from '../deps.js';
import { actorFor } from '../domain/actor.js';
import { notifyBotOwner, sendWebhookMessages, webhookPeople } from '../domain/webhooks.js';

/** The bot of a webhook request, as the gateway authenticated it (the integrations service passes its ids on). */
function botIdentity(realmId: number, botId: number): UserIdentity {
  return { kind: 'user', userId: botId, realmId, role: ROLE_MEMBER, email: '', isBot: true };
}

/** Routes the integrations service calls (docs/integrations.md); never reachable through the gateway. */
export function webhookInternalRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    internalRoute(internal.endpoints.webhookMessages, async (input, { requestId }) => {
      const actor = await actorFor(domain, botIdentity(input.realm_id, input.bot_id), requestId);
      const ids = await sendWebhookMessages(domain, deps.ownerReminders, actor, input.client, input.messages);
      return { ids };
    }),
    internalRoute(internal.endpoints.webhookOwnerNotice, async (input, { requestId }) => {
      const actor = await actorFor(domain, botIdentity(input.realm_id, input.bot_id), requestId);
      return { sent: await notifyBotOwner(domain, deps.ownerReminders, actor, input.content) };
    }),
    internalRoute(internal.endpoints.webhookBot, async (input, { requestId }) => {
      const { user } = await actorFor(domain, botIdentity(input.realm_id, input.bot_id), requestId);
      return {
        user_id: user.id,
        full_name: user.fullName,
        email: user.deliveryEmail,
        bot_owner_id: user.botOwnerId,
      };
    }),
    internalRoute(internal.endpoints.webhookPeople, async (input) => {
      const people = await webhookPeople(deps.webhookPeople, input.realm_id, input.emails, input.names);
      return {
        by_email: people.byEmail.map((p) => ({ email: p.email, full_name: p.fullName })),
        by_name: people.byName.map((p) => ({ name: p.name, full_name: p.fullName })),
      };
    }),
  ];
}
