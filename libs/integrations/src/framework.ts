import { ConfabError } from '@confab/errors';

/**
 * The contract between the webhook framework and one integration (docs/integrations.md). An integration is a pure
 * function of the request — its parsed body, its headers, its URL and form parameters — to the messages Zulip would
 * post, or to nothing (Zulip's "no message" cases), or to an error the framework answers with Zulip's texts. It does
 * no I/O: the integrations service authenticates nothing, sends through messaging and tells the bot's owner.
 */

/** A third-party JSON document, read field by field (the providers' payloads have no schema of ours). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** One incoming webhook request, as an integration sees it. */
export interface WebhookRequest {
  /** GET, POST, HEAD, … (Zulip routes every method to the view; Trello's HEAD and Dropbox's GET mean something). */
  method: string;
  /** The request's path (`/api/v1/external/github`), as Zulip's notices name it. */
  path: string;
  /** Query-string and form-body parameters (the body's win), as Zulip's REQ/typed_endpoint read them. */
  params: ReadonlyMap<string, string>;
  /** A request header by its name, in any case; undefined when absent. */
  header(name: string): string | undefined;
  /** The body as text (UTF-8). */
  body: string;
  /** The Content-Type header, lower-cased ('' when absent). */
  contentType: string;
  /** The body parsed as JSON (Zulip's JsonBodyPayload); throws Zulip's "Malformed JSON" when it is not JSON. */
  json(): Json;
  /**
   * The people of the bot's organization the integration asked about (`Integration.peopleNamed`), looked up before
   * the handler runs; absent when it asked about none (or outside a server: nobody is found).
   */
  people?: RealmPeople | undefined;
}

/**
 * What an integration may know of the bot's organization: the users it names, looked up before its pure handler
 * runs (Jira's assignee by email, its `[~name]` mentions).
 */
export interface RealmPeople {
  /** Zulip's get_user_by_delivery_email(email, realm).full_name (any case), or null: nobody has that address. */
  fullNameByEmail(email: string): string | null;
  /**
   * Zulip's guess_zulip_user_from_jira: the full name of the organization's first active user (by id) whose full
   * name is `name` (any case) or whose email starts with it, or null.
   */
  guessFullName(name: string): string | null;
}

/** The people an integration's request names, to be looked up for it (RealmPeople). */
export interface PeopleQuery {
  emails: readonly string[];
  names: readonly string[];
}

/** Nobody found: what an integration sees of the organization when nothing was looked up. */
export const NO_PEOPLE: RealmPeople = { fullNameByEmail: () => null, guessFullName: () => null };

/** The RealmPeople of what was looked up: full names by email (any case) and by the names guessed. */
export function realmPeople(
  byEmail: readonly { email: string; fullName: string }[],
  byName: readonly { name: string; fullName: string }[],
): RealmPeople {
  const emails = new Map(byEmail.map((p) => [p.email.trim().toLowerCase(), p.fullName]));
  const names = new Map(byName.map((p) => [p.name, p.fullName]));
  return {
    fullNameByEmail: (email) => emails.get(email.trim().toLowerCase()) ?? null,
    guessFullName: (name) => names.get(name) ?? null,
  };
}

/**
 * The request with the people its integration names (`Integration.peopleNamed`) looked up by `lookUp`; as it is
 * when the integration names nobody, or its query fails (the handler then answers the payload's error itself).
 */
export async function withPeople(
  integration: Integration,
  request: WebhookRequest,
  lookUp: (query: PeopleQuery) => Promise<RealmPeople>,
): Promise<WebhookRequest> {
  if (!integration.peopleNamed) return request;
  let query: PeopleQuery;
  try {
    query = integration.peopleNamed(request);
  } catch {
    return request;
  }
  // What no user can have (Zulip's limits) is not asked about.
  const emails = query.emails.filter((e) => e.length <= 254).slice(0, 20);
  const names = query.names.filter((n) => n.length > 0 && n.length <= 200).slice(0, 20);
  if (emails.length === 0 && names.length === 0) return request;
  return { ...request, people: await lookUp({ emails, names }) };
}

/** One message an integration posts (Zulip's check_send_webhook_message). */
export interface WebhookMessage {
  topic: string;
  content: string;
  /**
   * The event type `only_events` and `exclude_events` are matched against (Zulip's complete_event_type); absent or
   * null: the message is never filtered.
   */
  event?: string | null | undefined;
  /** A channel other than the URL's `stream` (Slack's channels_map_to_topics); absent: the URL's. */
  stream?: string | undefined;
}

/** The webhook's bot, for the answers that describe it (Zapier's authentication test). */
export interface WebhookBot {
  userId: number;
  fullName: string;
  email: string;
}

/**
 * An answer other than Zulip's plain success: Dropbox's challenge, Zapier's authentication check, HelloSign's
 * "Hello API Event Received" after its message.
 */
export class WebhookResponse {
  constructor(
    readonly status: number,
    /**
     * Text is sent as it is (with `contentType`); an object is the data of a success envelope (Zulip's
     * json_success(request, data): its keys win over `result` and `msg`), and a function makes that data from the
     * bot (the framework looks the bot up only then).
     */
    readonly body: string | Record<string, unknown> | ((bot: WebhookBot) => Record<string, unknown>),
    readonly contentType = 'text/plain; charset=utf-8',
    /** Messages posted before the answer, as a handler's returned messages are (the URL's topic, the filters). */
    readonly messages: readonly WebhookMessage[] = [],
  ) {}
}

/** What an integration's handler returns: the messages to post (none: answer success), or an answer of its own. */
export type WebhookResult = WebhookMessage | readonly WebhookMessage[] | null | undefined | WebhookResponse;

/** The auth forms Zulip's integrations take: `api_key` in the query or form body, or HTTP Basic `email:api_key`. */
export type WebhookAuth = 'api_key' | 'basic';

/** One integration module: its Zulip name, the name its view gives (client and error texts), and its handler. */
export interface Integration {
  /** The URL name: /api/v1/external/{name}. */
  name: string;
  /**
   * The name Zulip's view is declared with (`@webhook_view("GitHub")`): the message's sending client is
   * `Zulip{webhookName}Webhook`, and the error texts say "the GitHub webhook".
   */
  webhookName: string;
  /** Zulip's notify_bot_owner_on_invalid_json (default true): a body that is not JSON is told to the bot's owner. */
  notifyOnInvalidJson?: boolean;
  /** Zulip's unquote_url_parameters: the `stream` and `topic` parameters are percent-decoded once more (Jira). */
  unquoteUrlParameters?: boolean;
  /** Every event type the integration can post (Zulip's all_event_types), for the only_events/exclude_events picker. */
  eventTypes?: readonly string[];
  /**
   * The people of the organization the handler will name (Jira's assignee's email), looked up by the service and
   * handed to the handler as `request.people`. Pure, like `handle`; an error here leaves the lookup out.
   */
  peopleNamed?(request: WebhookRequest): PeopleQuery;
  handle(request: WebhookRequest): WebhookResult;
}

/**
 * Zulip's UnsupportedWebhookEventTypeError: an event the provider sends that the integration does not post. The
 * framework answers HTTP 200 with result "error", code UNSUPPORTED_WEBHOOK_EVENT_TYPE and Zulip's sentence.
 */
export class UnsupportedEventTypeError extends Error {
  constructor(readonly eventType: string | null) {
    super(`unsupported event type ${String(eventType)}`);
  }
}

/**
 * Zulip's AnomalousWebhookPayloadError: a request the integration cannot recognize as the provider's (400 "Unable to
 * parse request: Did {webhook_name} generate this event?").
 */
export class AnomalousPayloadError extends Error {
  constructor() {
    super('anomalous webhook payload');
  }
}

/** Zulip's MissingHTTPEventHeaderError: 400, and the bot's owner is told (framework). */
export class MissingEventHeaderError extends ConfabError {
  constructor(
    readonly header: string,
    /** The provider's name in the owner's notice ("GitHub"). */
    readonly integrationName: string,
  ) {
    super(`Missing the HTTP event header '${header}'`, { code: 'MISSING_HTTP_EVENT_HEADER', data: { header } });
  }
}

/** Zulip's InvalidJSONError: 400 "Malformed JSON", and the bot's owner is told unless the integration opted out. */
export class InvalidJsonError extends ConfabError {
  constructor() {
    super('Malformed JSON', { code: 'INVALID_JSON' });
  }
}

/** Throws Zulip's UnsupportedWebhookEventTypeError for `eventType`. */
export function unsupportedEvent(eventType: string | null | undefined): never {
  throw new UnsupportedEventTypeError(eventType ?? null);
}

/** Throws Zulip's AnomalousWebhookPayloadError. */
export function anomalousPayload(): never {
  throw new AnomalousPayloadError();
}

/** What an integration's own notice to the bot's owner may name: the bot, and where to ask for help. */
export interface OwnerNoticeFacts {
  botName: string;
  /** Zulip's FromAddress.SUPPORT. */
  supportEmail: string;
}

/**
 * What the bot's owner is told in an integration's own words (UptimeRobot's "missing some data", Freshstatus's
 * MISCONFIGURED_PAYLOAD_ERROR_MESSAGE), made from the bot's full name and the server's support address when it is
 * sent (by the Notification Bot, at most once a minute per bot, as the other notices).
 */
export type OwnerNoticeText = (facts: OwnerNoticeFacts) => string;

/**
 * A view's send_rate_limited_pm_notification_to_bot_owner: the owner is told `notice`, and the request is answered
 * with `error`, or with success and no message when there is none (TeamCity's payload of another format).
 */
export class OwnerNoticeError extends Error {
  constructor(
    readonly notice: OwnerNoticeText,
    readonly error: ConfabError | null,
  ) {
    super('the bot owner is told of a webhook request');
  }
}

/** Tells the bot's owner `notice`, answering with `error` (or, without one, success and no message). */
export function notifyOwner(notice: OwnerNoticeText, error: ConfabError | null = null): never {
  throw new OwnerNoticeError(notice, error);
}
