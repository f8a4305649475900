import { ConfabError, invalid } from '@confab/errors';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import { sendMessage } from './send.js';

/** Zulip's Realm.MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH. */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/**
 * POST /realm/test_welcome_bot_custom_message (Zulip's send_test_welcome_bot_custom_message): the custom welcome
 * text, sent to the administrator who asks, as new users would receive it. Confab has no Welcome Bot: the
 * organization's Notification Bot sends it.
 */
export async function testWelcomeBotMessage(domain: Domain, actor: Actor, text: string): Promise<number> {
  if (!isAdmin(actor.user))
    throw new ConfabError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
  const customText = text.trim();
  if (customText === '') throw invalid('Message must not be empty.');
  const bot = await domain.readModel.notificationBot(actor.realm.id);
  if (!bot) throw invalid('The Welcome Bot is not available yet.');
  const sent = await sendMessage(
    domain,
    { user: bot, realm: actor.realm, requestId: actor.requestId },
    {
      type: 'private',
      to: JSON.stringify([actor.user.id]),
      topic: undefined,
      content: customText,
      queueId: undefined,
      localId: undefined,
      readBySender: true,
      client: 'Internal',
    },
  );
  return sent.id;
}
