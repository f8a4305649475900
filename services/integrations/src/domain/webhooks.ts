import { ConfabError } from '@confab/errors';
import {
  invalidJsonNotice,
  missingHeaderNotice,
  runWebhook,
  withPeople,
  type Integration,
  type OutgoingMessage,
  type OwnerNotice,
  type PeopleQuery,
  type RealmPeople,
  type WebhookBot,
  type WebhookRequest,
} from '@confab/integrations';
import type { Logger } from '@confab/logging';

/**
 * One incoming webhook request, end to end (docs/integrations.md): the integration's pure translation
 * (@confab/integrations' runWebhook), then what it asks for through messaging — the messages, posted as the bot with
 * the webhook's client name, and the bot owner's notice of a misconfigured webhook. This service keeps no state.
 */

/** The webhook's bot, as its owner's notices and Zapier's authentication test name it. */
export type BotFacts = WebhookBot;

/** What this service asks of messaging (internal.endpoints.webhook*). */
export interface MessagingPort {
  send(bot: BotRef, client: string, messages: readonly OutgoingMessage[]): Promise<(number | null)[]>;
  notifyOwner(bot: BotRef, content: string): Promise<void>;
  bot(bot: BotRef): Promise<BotFacts>;
  /** The people of the bot's organization an integration names (Jira's assignee). */
  people(realmId: number, query: PeopleQuery): Promise<RealmPeople>;
}

export interface BotRef {
  realmId: number;
  userId: number;
}

export interface WebhookDeps {
  messaging: MessagingPort;
  logger: Logger;
  /** Named in the owner's notice of a missing event header (Zulip's FromAddress.SUPPORT). */
  supportEmail: string;
}

/** How the request is answered: Zulip's success envelope (with data), or an answer of the integration's own. */
export type WebhookAnswer =
  | { kind: 'success'; data: Record<string, unknown> }
  | { kind: 'raw'; status: number; body: string; contentType: string };

/** Zulip's full_webhook_client_name: the sending client of the webhook's messages. */
export function clientName(integration: Integration): string {
  return `Zulip${integration.webhookName}Webhook`;
}

/** Runs one webhook request; a Zulip error is thrown (the route answers it), after the owner was told if need be. */
export async function handleWebhook(
  deps: WebhookDeps,
  integration: Integration,
  request: WebhookRequest,
  bot: BotRef,
): Promise<WebhookAnswer> {
  const prepared = await withPeople(integration, request, (query) => deps.messaging.people(bot.realmId, query));
  const outcome = runWebhook(integration, prepared);
  switch (outcome.kind) {
    case 'messages':
      if (outcome.messages.length > 0) await deps.messaging.send(bot, clientName(integration), outcome.messages);
      if (outcome.notice) await tellOwner(deps, bot, request, outcome.notice);
      return { kind: 'success', data: {} };
    case 'response': {
      if (outcome.messages.length > 0) await deps.messaging.send(bot, clientName(integration), outcome.messages);
      const { status, body, contentType } = outcome.response;
      if (typeof body === 'string') return { kind: 'raw', status, body, contentType };
      if (typeof body === 'function') return { kind: 'success', data: body(await deps.messaging.bot(bot)) };
      return { kind: 'success', data: body };
    }
    case 'error':
      if (outcome.unexpected !== undefined) {
        deps.logger.warn(
          { err: outcome.unexpected, integration: integration.name },
          'webhook payload not as the provider sends it',
        );
      }
      if (outcome.notice) await tellOwner(deps, bot, request, outcome.notice);
      throw outcome.error;
  }
}

/** The bot owner's notice; a notice that cannot be sent is logged, and the answer stays Zulip's. */
async function tellOwner(deps: WebhookDeps, bot: BotRef, request: WebhookRequest, notice: OwnerNotice) {
  try {
    let content: string;
    if (notice.kind === 'invalid_json') content = invalidJsonNotice(notice.webhookName);
    else if (notice.kind === 'text') {
      const facts = await deps.messaging.bot(bot);
      content = notice.text({ botName: facts.fullName, supportEmail: deps.supportEmail });
    } else {
      const facts = await deps.messaging.bot(bot);
      content = missingHeaderNotice({
        botName: facts.fullName,
        requestPath: request.path,
        header: notice.header,
        integrationName: notice.integrationName,
        supportEmail: deps.supportEmail,
      });
    }
    await deps.messaging.notifyOwner(bot, content);
  } catch (err) {
    if (!(err instanceof ConfabError)) throw err;
    deps.logger.warn({ err: err.message, bot_id: bot.userId }, 'the bot owner could not be told of a webhook error');
  }
}
