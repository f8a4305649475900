import { ConfabError } from '@confab/errors';
import { messageForClient, type contracts } from '@confab/events';
import { directMessageUrl, messageNarrowUrl, pyBytesRepr, pyStr, pyStrRepr } from '@confab/zulip';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { sendMessage } from './send.js';
import { OUTGOING_WEBHOOK_BOT, type Realm, type User } from './types.js';

/**
 * Outgoing webhooks (Zulip's zerver/lib/outgoing_webhook.py and its outgoing_webhooks worker): a message that
 * triggered an outgoing webhook bot is posted to the bot's service, and the service's answer is posted back by the
 * bot into the same conversation. docs/architecture.md, "Outgoing webhooks".
 */

/** Zulip's GENERIC_INTERFACE and SLACK_INTERFACE (Service.interface). */
export const GENERIC_INTERFACE = 1;
export const SLACK_INTERFACE = 2;

/** One of the bot's services, as the settings service keeps it (internal.botServices). */
export interface OutgoingService {
  name: string;
  baseUrl: string;
  interface: number;
  token: string;
}

/** A request to a bot's service. */
export interface WebhookRequest {
  url: string;
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  body: string;
}

/** How a request ended, in the classes Zulip's do_rest_call tells apart. */
export type WebhookOutcome =
  | { kind: 'response'; status: number; body: Buffer }
  | { kind: 'timeout' }
  | { kind: 'connection-error' }
  /** The URL's address is not public and not on the operator's allow-list: nothing was sent. */
  | { kind: 'refused'; reason: string }
  | { kind: 'exception'; type: string; message: string };

/** The ports of a delivery: the bot's services (settings owns them) and the HTTP call. */
export interface OutgoingWebhookPorts {
  servicesOf(botId: number): Promise<OutgoingService[]>;
  post(request: WebhookRequest): Promise<WebhookOutcome>;
  /** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS, for the owner's notice of a timeout. */
  timeoutSeconds: number;
}

/** One bot's delivery of one message (a job). */
export interface OutgoingWebhookJob {
  botId: number;
  trigger: 'mention' | 'direct_message';
  message: contracts.MessageRecord;
}

/** `retry`: the service could not be reached and this was not the last attempt; the caller tries again later. */
export type DeliveryResult = 'done' | 'retry';

/** Zulip's client name for the replies (get_client("OutgoingWebhookResponse")). */
const RESPONSE_CLIENT = 'OutgoingWebhookResponse';

/**
 * Zulip's OutgoingWebhookWorker.consume + do_rest_call, for each of the bot's services in turn. A timeout or a
 * connection error is retried (the caller's queue decides how often); on the last attempt the conversation is told
 * "Bot is unavailable" and the bot's owner gets Zulip's notice. Other failures are not retried: they are told at once.
 */
export async function deliverOutgoingWebhook(
  domain: Domain,
  ports: OutgoingWebhookPorts,
  job: OutgoingWebhookJob,
  attempt: { last: boolean },
): Promise<DeliveryResult> {
  const bot = await domain.directory.user(job.botId);
  if (!bot || !bot.isActive || bot.botType !== OUTGOING_WEBHOOK_BOT) return 'done';
  const realm = await domain.directory.realm(bot.realmId);
  if (!realm || realm.deactivated) return 'done';
  const ctx: Delivery = {
    domain,
    bot,
    realm,
    job,
    actor: { user: bot, realm, requestId: `outgoing-webhook-${job.message.id}-${bot.id}` },
  };
  for (const service of await ports.servicesOf(bot.id)) {
    const request = webhookRequest(service, bot, realm, job);
    if (request === null) {
      await failWithMessage(ctx, "Slack outgoing webhooks don't support direct messages.");
      continue;
    }
    const outcome = await ports.post(request);
    if (outcome.kind === 'timeout' || outcome.kind === 'connection-error') {
      if (!attempt.last) return 'retry';
      domain.logger.warn({ botId: bot.id, messageId: job.message.id }, 'outgoing webhook: maximum retries exceeded');
      await failWithMessage(ctx, 'Bot is unavailable');
      await notifyBotOwner(ctx, {
        failureMessage:
          outcome.kind === 'timeout'
            ? `Request timed out after ${ports.timeoutSeconds} seconds.`
            : 'A connection error occurred. Is my bot server down?',
      });
    } else if (outcome.kind === 'refused') {
      // What Zulip's owner sees when Smokescreen refuses the address: its 407, told as a private network.
      domain.logger.warn({ botId: bot.id, reason: outcome.reason }, 'outgoing webhook to a disallowed address refused');
      await failWithMessage(ctx, 'Third party responded with 407');
      await notifyBotOwner(ctx, { status: 407 });
    } else if (outcome.kind === 'exception') {
      domain.logger.warn({ botId: bot.id, err: outcome.message }, 'outgoing webhook failed');
      await failWithMessage(
        ctx,
        `An exception of type *${outcome.type}* occurred for message \`${job.message.content}\`! ` +
          'See the Zulip server logs for more information.',
      );
      await notifyBotOwner(ctx, { exception: outcome });
    } else if (outcome.status >= 200 && outcome.status < 300) {
      await processSuccess(ctx, service, outcome.body);
    } else {
      domain.logger.info({ botId: bot.id, status: outcome.status }, 'outgoing webhook answered with an error');
      await failWithMessage(ctx, `Third party responded with ${outcome.status}`);
      await notifyBotOwner(ctx, { status: outcome.status, responseContent: outcome.body });
    }
  }
  return 'done';
}

interface Delivery {
  domain: Domain;
  bot: User;
  realm: Realm;
  job: OutgoingWebhookJob;
  actor: Actor;
}

/**
 * The request for one service (Zulip's make_request): Zulip's JSON payload, or Slack's form fields; null for a Slack
 * service and a direct message, which Slack's format cannot carry.
 */
export function webhookRequest(
  service: OutgoingService,
  bot: Pick<User, 'email' | 'fullName' | 'id'>,
  realm: Pick<Realm, 'id' | 'url'>,
  job: OutgoingWebhookJob,
): WebhookRequest | null {
  const message = job.message;
  if (service.interface === SLACK_INTERFACE) {
    if (message.type === 'private') return null;
    const fields: [string, string][] = [
      ['token', service.token],
      ['team_id', `T${realm.id}`],
      ['team_domain', new URL(realm.url).host],
      ['channel_id', `C${message.stream_id ?? ''}`],
      ['channel_name', typeof message.display_recipient === 'string' ? message.display_recipient : ''],
      ['thread_ts', String(message.timestamp)],
      ['timestamp', String(message.timestamp)],
      ['user_id', `U${message.sender_id}`],
      ['user_name', message.sender_full_name],
      ['text', message.content],
      ['trigger_word', job.trigger],
      ['service_id', String(bot.id)],
    ];
    return {
      url: service.baseUrl,
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams(fields).toString(),
    };
  }
  // Zulip's MessageDict.finalize_payload(apply_markdown=False, client_gravatar=False, keep_rendered_content=True).
  const dict = messageForClient(message, { applyMarkdown: false, clientGravatar: false, emptyTopicAs: null });
  dict.rendered_content = message.rendered_content;
  const payload = {
    data: message.content,
    message: dict,
    bot_email: bot.email,
    bot_full_name: bot.fullName,
    token: service.token,
    trigger: job.trigger,
  };
  return { url: service.baseUrl, contentType: 'application/json', body: JSON.stringify(payload) };
}

/** Zulip's process_success_response: the reply a 2xx answer asks for, if any, posted by the bot. */
async function processSuccess(ctx: Delivery, service: OutgoingService, body: Buffer): Promise<void> {
  const text = body.toString('utf8');
  let content: string | null;
  try {
    content = replyContent(service, text);
  } catch (err) {
    if (!(err instanceof BadResponse)) throw err;
    await failAfterResponse(ctx, err.message, text);
    return;
  }
  if (content === null) return;
  try {
    await reply(ctx, ctx.job.message, content);
  } catch (err) {
    if (!(err instanceof ConfabError) || err.status >= 500) throw err;
    await failAfterResponse(ctx, err.message, text);
  }
}

/** The service answered, but what it asked for could not be posted: both the conversation and the owner are told. */
async function failAfterResponse(ctx: Delivery, error: string, responseText: string): Promise<void> {
  await failWithMessage(ctx, error);
  await notifyBotOwner(ctx, {
    failureMessage: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`,
    responseContent: responseText,
  });
}

class BadResponse extends Error {}

/**
 * What a service's 2xx answer asks to post (Zulip's process_success_response and process_success): `content` (or
 * the deprecated `response_string`) of Zulip's format, `text` of Slack's; null for nothing to post
 * (`response_not_required`, a blank reply, the old bot server's `""`). Throws BadResponse for what is not a JSON object.
 */
export function replyContent(service: Pick<OutgoingService, 'interface'>, text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadResponse('Invalid JSON in response');
  }
  if (json === '') return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new BadResponse('Invalid response format');
  const answer = json as Record<string, unknown>;
  let content: unknown;
  if (service.interface === SLACK_INTERFACE) {
    content = 'text' in answer ? answer.text : null;
  } else {
    if (answer.response_not_required) return null;
    if ('response_string' in answer) content = pyStr(answer.response_string);
    else if ('content' in answer) content = pyStr(answer.content);
    else return null;
  }
  if (content === null || content === undefined) return null;
  const reply = typeof content === 'string' ? content : pyStr(content);
  return reply.trim() === '' ? null : reply;
}

/** Zulip's send_response_message: the bot posts into the conversation of `message` (its channel and topic, or its DM). */
async function reply(ctx: Delivery, message: contracts.MessageRecord, content: string): Promise<void> {
  const channel = message.type === 'stream';
  const participants = Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];
  await sendMessage(ctx.domain, ctx.actor, {
    type: channel ? 'stream' : 'private',
    to: JSON.stringify(channel ? message.stream_id : participants),
    topic: channel ? message.subject : undefined,
    content,
    queueId: undefined,
    localId: undefined,
    readBySender: undefined,
    client: RESPONSE_CLIENT,
    skipChannelAccessCheck: true,
  });
}

/** Zulip's fail_with_message: "Failure! …" into the conversation; a conversation gone meanwhile is not told. */
async function failWithMessage(ctx: Delivery, failure: string): Promise<void> {
  try {
    await reply(ctx, ctx.job.message, `Failure! ${failure}`);
  } catch (err) {
    if (!(err instanceof ConfabError) || err.status >= 500) throw err;
    ctx.domain.logger.info({ err: err.message, botId: ctx.bot.id }, 'outgoing webhook failure could not be posted');
  }
}

/** Zulip's notify_bot_owner: the bot tells its owner, by direct message, what went wrong and with which message. */
async function notifyBotOwner(ctx: Delivery, what: OwnerNoticeFacts): Promise<void> {
  const ownerId = ctx.bot.botOwnerId;
  if (ownerId === null) return;
  const content = ownerNotice(ctx.bot.fullName, messageUrl(ctx.realm, ctx.job.message), what);
  try {
    await sendMessage(ctx.domain, ctx.actor, {
      type: 'private',
      to: JSON.stringify([ownerId]),
      topic: undefined,
      content,
      queueId: undefined,
      localId: undefined,
      readBySender: undefined,
      client: RESPONSE_CLIENT,
    });
  } catch (err) {
    if (!(err instanceof ConfabError) || err.status >= 500) throw err;
    ctx.domain.logger.info({ err: err.message, botId: ctx.bot.id }, 'outgoing webhook notice could not be sent');
  }
}

/** What went wrong, for the owner's notice: the body is the service's answer as bytes, or as text (Zulip's both). */
export interface OwnerNoticeFacts {
  status?: number;
  responseContent?: Buffer | string;
  failureMessage?: string;
  exception?: { type: string; message: string };
}

/** The text of Zulip's notify_bot_owner; the service's answer is quoted in Python's repr, as Zulip writes it. */
export function ownerNotice(botName: string, url: string, what: OwnerNoticeFacts): string {
  let text = `[A message](${url}) to your bot @_**${botName}** triggered an outgoing webhook.`;
  if (what.exception) {
    text +=
      '\nWhen trying to send a request to the webhook service, an exception ' +
      `of type ${what.exception.type} occurred:\n\`\`\`\n${what.exception.message}\n\`\`\``;
  } else if (what.failureMessage) {
    text += `\n${what.failureMessage}`;
  } else if (what.status === 407) {
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  } else if (what.status) {
    text += `\nThe webhook got a response with status code *${what.status}*.`;
  }
  const body = what.responseContent;
  // An empty answer adds nothing (Zulip tests its truthiness).
  if (body !== undefined && body.length > 0) {
    const repr = typeof body === 'string' ? pyStrRepr(body) : pyBytesRepr(body);
    text += `\nThe response contains the following payload:\n\`\`\`\n${repr}\n\`\`\``;
  }
  return text;
}

/** Zulip's message_link_url: the message in its topic, or in its direct-message conversation. */
export function messageUrl(realm: Pick<Realm, 'url'>, message: contracts.MessageRecord): string {
  if (message.type === 'stream' && typeof message.display_recipient === 'string')
    return messageNarrowUrl(
      realm.url,
      { id: message.stream_id ?? 0, name: message.display_recipient },
      message.subject,
      message.id,
    );
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];
  return directMessageUrl(realm.url, ids, message.id);
}
