import { ConfabError } from '@confab/errors';
import { channelLinkSyntax } from '@confab/markdown';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { sendMessage } from './send.js';
import type { User } from './types.js';

/**
 * Incoming webhooks' messages (docs/integrations.md): the integrations service translates a provider's request and
 * asks messaging to post the result as the webhook's bot. The send is POST /messages' own (permissions, rendering,
 * events, group commit); what is Zulip's check_send_webhook_message on top of it is here: a message without a channel
 * goes to the bot's owner, a channel that does not exist is no failure, and the owner hears of that from the
 * Notification Bot (send_pm_if_empty_stream, send_rate_limited_pm_notification_to_bot_owner).
 */

/** The bot owner's notices are rate-limited per bot (Zulip's UserProfile.last_reminder). */
export interface OwnerReminders {
  /** Whether a notice about this bot may go out now (and, if so, that one did). */
  claim(botId: number): Promise<boolean>;
}

/** Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD: one notice per bot per minute. */
export const OWNER_NOTICE_WAIT_SECONDS = 60;

/**
 * The people of an organization an incoming webhook names (Jira's assignee by email, its `[~name]` mentions): each
 * email's user by delivery email in any case (Zulip's get_user_by_delivery_email), and for each name the first
 * active user by id whose full name is it or whose email starts with it, in any case (guess_zulip_user_from_jira).
 */
export interface WebhookPeopleReader {
  byDeliveryEmail(realmId: number, emails: readonly string[]): Promise<{ email: string; fullName: string }[]>;
  guessByName(realmId: number, name: string): Promise<string | null>;
}

/** The full names of the people a webhook request names; absent ones are left out (no reader: nobody is found). */
export async function webhookPeople(
  reader: WebhookPeopleReader | undefined,
  realmId: number,
  emails: readonly string[],
  names: readonly string[],
): Promise<{ byEmail: { email: string; fullName: string }[]; byName: { name: string; fullName: string }[] }> {
  if (!reader) return { byEmail: [], byName: [] };
  const byEmail = emails.length === 0 ? [] : await reader.byDeliveryEmail(realmId, emails);
  const byName: { name: string; fullName: string }[] = [];
  for (const name of new Set(names)) {
    const fullName = await reader.guessByName(realmId, name);
    if (fullName !== null) byName.push({ name, fullName });
  }
  return { byEmail, byName };
}

export interface WebhookMessage {
  /** A channel name, or an id when all digits; null: a direct message to the bot's owner. */
  stream: string | null;
  topic: string;
  content: string;
}

/** Posts a webhook's messages in order; a channel that does not exist gives null instead of a message id. */
export async function sendWebhookMessages(
  domain: Domain,
  reminders: OwnerReminders | undefined,
  actor: Actor,
  client: string,
  messages: readonly WebhookMessage[],
): Promise<(number | null)[]> {
  const ids: (number | null)[] = [];
  for (const message of messages) ids.push(await sendOne(domain, reminders, actor, client, message));
  return ids;
}

async function sendOne(
  domain: Domain,
  reminders: OwnerReminders | undefined,
  actor: Actor,
  client: string,
  message: WebhookMessage,
): Promise<number | null> {
  const common = { queueId: undefined, localId: undefined, readBySender: undefined, client } as const;
  if (message.stream === null) {
    // Zulip's check_send_private_message to user_profile.bot_owner; a user without an owner gets it themselves.
    const to = actor.user.botOwnerId ?? actor.user.id;
    const sent = await sendMessage(domain, actor, {
      ...common,
      type: 'private',
      to: JSON.stringify([to]),
      topic: undefined,
      content: message.content,
    });
    return sent.id;
  }
  const byId = /^[0-9]+$/.test(message.stream);
  try {
    const sent = await sendMessage(domain, actor, {
      ...common,
      type: 'stream',
      to: byId ? message.stream : JSON.stringify(message.stream),
      topic: message.topic,
      content: message.content,
    });
    await noticeIfNoSubscribers(domain, reminders, actor, message.stream, byId);
    return sent.id;
  } catch (err) {
    if (!(err instanceof ConfabError) || err.code !== 'STREAM_DOES_NOT_EXIST') throw err;
    const content = byId
      ? `Your bot \`${actor.user.deliveryEmail}\` tried to send a message to channel ID ${message.stream}, ` +
        'but there is no channel with that ID.'
      : `Your bot \`${actor.user.deliveryEmail}\` tried to send a message to channel #**${message.stream.trim()}**, ` +
        'but that channel does not exist. Click [here](#channels/new) to create it.';
    await notifyBotOwner(domain, reminders, actor, content);
    return null;
  }
}

/** Zulip's send_pm_if_empty_stream for a channel that exists: its owner is told when nobody is subscribed. */
async function noticeIfNoSubscribers(
  domain: Domain,
  reminders: OwnerReminders | undefined,
  actor: Actor,
  stream: string,
  byId: boolean,
): Promise<void> {
  if (!actor.user.isBot || actor.user.botOwnerId === null) return;
  const channel = byId
    ? await domain.directory.channel(Number(stream))
    : await domain.directory.channelByName(actor.realm.id, stream.trim());
  if (!channel || (await domain.channels.subscriberCount(channel.id)) > 0) return;
  await notifyBotOwner(
    domain,
    reminders,
    actor,
    `Your bot \`${actor.user.deliveryEmail}\` tried to send a message to channel ${channelLinkSyntax(channel)}. ` +
      'The channel exists but does not have any subscribers.',
  );
}

/**
 * Zulip's send_rate_limited_pm_notification_to_bot_owner: the Notification Bot tells the bot's owner, once a minute
 * per bot at most. Users that are no bots, or have no owner, are told nothing. Answers whether a notice was sent.
 */
export async function notifyBotOwner(
  domain: Domain,
  reminders: OwnerReminders | undefined,
  actor: Actor,
  content: string,
): Promise<boolean> {
  const bot = actor.user;
  if (!bot.isBot || bot.botOwnerId === null || actor.realm.deactivated) return false;
  if (reminders && !(await reminders.claim(bot.id))) return false;
  const notificationBot = await domain.readModel.notificationBot(actor.realm.id);
  if (!notificationBot) {
    domain.logger.warn({ realm_id: actor.realm.id }, 'the Notification Bot is not known yet; no notice to a bot owner');
    return false;
  }
  await sendMessage(domain, botActor(actor, notificationBot), {
    type: 'private',
    to: JSON.stringify([bot.botOwnerId]),
    topic: undefined,
    content,
    queueId: undefined,
    localId: undefined,
    readBySender: undefined,
    client: 'Internal',
  });
  return true;
}

function botActor(actor: Actor, notificationBot: User): Actor {
  return { user: notificationBot, realm: actor.realm, requestId: actor.requestId };
}
