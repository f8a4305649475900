import { ConfabError } from '@confab/errors';
import {
  AnomalousPayloadError,
  InvalidJsonError,
  MissingEventHeaderError,
  OwnerNoticeError,
  UnsupportedEventTypeError,
  WebhookResponse,
  type Integration,
  type OwnerNoticeText,
  type WebhookMessage,
  type WebhookRequest,
  type WebhookResult,
} from './framework.js';
import { eventFilters } from './toolkit/filters.js';

/**
 * The framework around one integration's handler (Zulip's webhook_view and check_send_webhook_message), pure: it
 * runs the handler, applies the URL's `stream`, `topic`, `only_events` and `exclude_events`, and turns the errors
 * integrations raise into Zulip's answers. The integrations service sends what it decides; the case checker
 * (scripts/webhook-cases.mjs) compares it with Zulip's expectations.
 */

/** A message as it is to be sent: to a channel (by name, or by id when all digits), or to the bot's owner (null). */
export interface OutgoingMessage {
  stream: string | null;
  topic: string;
  content: string;
}

/** What the bot's owner is to be told by direct message (Zulip's send_rate_limited_pm_notification_to_bot_owner). */
export type OwnerNotice =
  | { kind: 'missing_header'; header: string; integrationName: string }
  | { kind: 'invalid_json'; webhookName: string }
  /**
   * The integration's own text (`notifyOwner`: UptimeRobot's and Zabbix's "missing some data", Freshstatus's
   * misconfigured payload, TeamCity's other format).
   */
  | { kind: 'text'; text: OwnerNoticeText };

export type Outcome =
  /** Success: these messages (none: Zulip's "no message" cases) are sent, then `{"result": "success"}`. */
  | { kind: 'messages'; messages: OutgoingMessage[]; notice?: OwnerNotice }
  /**
   * An answer of the integration's own (Dropbox's challenge, Zapier's authentication test), after these messages
   * are sent (HelloSign's).
   */
  | { kind: 'response'; response: WebhookResponse; messages: OutgoingMessage[] }
  /** Zulip's error answer; `unexpected` is an error the handler did not mean to raise (logged by the service). */
  | { kind: 'error'; error: ConfabError; notice?: OwnerNotice; unexpected?: unknown };

/** Zulip's UnsupportedWebhookEventTypeError, as answered: HTTP 200 with result "error". */
export function unsupportedEventError(webhookName: string, eventType: string | null): ConfabError {
  return new ConfabError(
    `The '${eventType ?? 'None'}' event isn't currently supported by the ${webhookName} webhook; ignoring`,
    { status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', data: { webhook_name: webhookName, event_type: eventType } },
  );
}

/** Zulip's AnomalousWebhookPayloadError, as answered. */
export function anomalousPayloadError(webhookName: string): ConfabError {
  return new ConfabError(`Unable to parse request: Did ${webhookName} generate this event?`, {
    code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
    data: { webhook_name: webhookName },
  });
}

function errorOutcome(integration: Integration, err: unknown): Outcome {
  if (err instanceof UnsupportedEventTypeError) {
    return { kind: 'error', error: unsupportedEventError(integration.webhookName, err.eventType) };
  }
  if (err instanceof AnomalousPayloadError) {
    return { kind: 'error', error: anomalousPayloadError(integration.webhookName) };
  }
  if (err instanceof MissingEventHeaderError) {
    return {
      kind: 'error',
      error: err,
      notice: { kind: 'missing_header', header: err.header, integrationName: err.integrationName },
    };
  }
  if (err instanceof InvalidJsonError) {
    return integration.notifyOnInvalidJson === false
      ? { kind: 'error', error: err }
      : { kind: 'error', error: err, notice: { kind: 'invalid_json', webhookName: integration.webhookName } };
  }
  if (err instanceof OwnerNoticeError) {
    const notice: OwnerNotice = { kind: 'text', text: err.notice };
    return err.error === null
      ? { kind: 'messages', messages: [], notice }
      : { kind: 'error', error: err.error, notice };
  }
  if (err instanceof ConfabError) return { kind: 'error', error: err };
  // A payload without the fields the provider always sends (a TypeError reading it): not the provider's request.
  return { kind: 'error', error: anomalousPayloadError(integration.webhookName), unexpected: err };
}

/** Runs an integration on a request: Zulip's answer and the messages to send. */
export function runWebhook(integration: Integration, request: WebhookRequest): Outcome {
  let result;
  try {
    result = integration.handle(request);
  } catch (err) {
    return errorOutcome(integration, err);
  }
  const response = result instanceof WebhookResponse ? result : null;
  let produced: readonly WebhookMessage[] = [];
  if (result instanceof WebhookResponse) produced = result.messages;
  else if (result !== null && result !== undefined) produced = toList(result);
  let messages: OutgoingMessage[];
  try {
    messages = addressed(integration, request, produced);
  } catch (err) {
    return errorOutcome(integration, err);
  }
  return response !== null ? { kind: 'response', response, messages } : { kind: 'messages', messages };
}

function toList(result: Exclude<WebhookResult, WebhookResponse | null | undefined>): readonly WebhookMessage[] {
  return Array.isArray(result) ? (result as readonly WebhookMessage[]) : [result as WebhookMessage];
}

/** Zulip's check_send_webhook_message for each message: the event filters, then the channel and topic of the URL. */
function addressed(
  integration: Integration,
  request: WebhookRequest,
  messages: readonly WebhookMessage[],
): OutgoingMessage[] {
  const filters = eventFilters(request.params);
  const unquote = (value: string) => (integration.unquoteUrlParameters ? safeUnquote(value) : value);
  const urlStream = request.params.get('stream');
  const urlTopic = request.params.get('topic');
  const out: OutgoingMessage[] = [];
  for (const message of messages) {
    if (message.event !== undefined && message.event !== null && !filters.admits(message.event)) continue;
    const stream = message.stream ?? urlStream;
    if (stream === undefined) {
      out.push({ stream: null, topic: message.topic, content: message.content });
      continue;
    }
    const topic = urlTopic === undefined ? message.topic : unquote(urlTopic);
    out.push({ stream: unquote(stream), topic, content: message.content });
  }
  return out;
}

/** Python's urllib.parse.unquote: malformed escapes stay as they are. */
function safeUnquote(value: string): string {
  return value.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
