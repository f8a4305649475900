import { MissingEventHeaderError, type WebhookRequest } from '../framework.js';

/**
 * Zulip's validate_extract_webhook_http_header: the provider's event-type header. Missing, it is Zulip's 400
 * MISSING_HTTP_EVENT_HEADER, and the framework tells the bot's owner (`integrationName` names the provider there).
 */
export function eventHeader(request: WebhookRequest, header: string, integrationName: string): string {
  const value = request.header(header);
  if (value === undefined) throw new MissingEventHeaderError(header, integrationName);
  return value;
}

/** The text of Zulip's MISSING_EVENT_HEADER_MESSAGE, sent to the bot's owner by the Notification Bot. */
export function missingHeaderNotice(facts: {
  botName: string;
  requestPath: string;
  header: string;
  integrationName: string;
  supportEmail: string;
}): string {
  return (
    `Hi there!  Your bot ${facts.botName} just sent an HTTP request to ${facts.requestPath} that\n` +
    `is missing the HTTP ${facts.header} header.  Because this header is how\n` +
    `${facts.integrationName} indicates the event type, this usually indicates a configuration\n` +
    'issue, where you either entered the URL for a different integration, or are running\n' +
    "an older version of the third-party service that doesn't provide that header.\n" +
    `Contact ${facts.supportEmail} if you need help debugging!\n`
  );
}

/** The text of Zulip's INVALID_JSON_MESSAGE (stripped, as Zulip sends it). */
export function invalidJsonNotice(webhookName: string): string {
  return (
    `Hi there! It looks like you tried to set up the Zulip ${webhookName} integration,\n` +
    "but didn't correctly configure the webhook to send data in the JSON format\n" +
    'that this integration expects!'
  );
}

/** Zulip's get_setup_webhook_message: "{integration} webhook has been successfully configured[ by {user}]." */
export function setupMessage(integration: string, userName?: string | null): string {
  return `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;
}
