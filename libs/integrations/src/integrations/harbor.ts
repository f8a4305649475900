import { NO_PEOPLE, unsupportedEvent, type Integration, type Json, type WebhookRequest } from '../framework.js';
import { pyRepr } from '../toolkit/python.js';
import { int, list, str } from '../toolkit/wild.js';
import { items } from '../toolkit/validators.js';

/**
 * Harbor (zerver/webhooks/harbor): images pushed and vulnerability scans completed, in the topic of the repository.
 * The operator is named as the organization's user Zulip guesses for them, if any.
 */

const IGNORED_EVENTS = new Set([
  'DOWNLOAD_CHART',
  'DELETE_CHART',
  'UPLOAD_CHART',
  'PULL_ARTIFACT',
  'DELETE_ARTIFACT',
  'SCANNING_FAILED',
]);
const REPORT = 'application/vnd.security.vulnerability.report; version=1.1';

function imageId(payload: Json): string {
  const name = str(payload.event_data.repository.repo_full_name);
  const resource = list(payload.event_data.resources)[0] as Json;
  return 'tag' in resource ? `${name}:${str(resource.tag)}` : `${name}@${str(resource.digest)}`;
}

function scanningCompleted(payload: Json): string {
  const overview = (list(payload.event_data.resources)[0] as Json).scan_overview;
  if (!(REPORT in overview)) unsupportedEvent(pyRepr(Object.keys(overview)));
  const summaries = items(overview[REPORT].summary.summary);
  const results =
    summaries.length > 0
      ? summaries.map(([severity, count]) => `* ${severity}: **${int(count)}**\n`).join('')
      : 'None\n';
  return `Image scan completed for \`${imageId(payload)}\`. Vulnerabilities by severity:\n\n${results}`;
}

/**
 * Zulip looks the operator up by "**<operator>**" (the bold name it has just written), as guess_zulip_user_from_harbor
 * does: a full name or the start of an email.
 */
const operatorName = (payload: Json) => `**${str(payload.operator)}**`;

export const harbor: Integration = {
  name: 'harbor',
  webhookName: 'Harbor',
  eventTypes: ['PUSH_ARTIFACT', 'SCANNING_COMPLETED'],
  unquoteUrlParameters: true,
  peopleNamed(request: WebhookRequest) {
    return { emails: [], names: [operatorName(request.json())] };
  },
  handle(request) {
    const payload = request.json();
    let operator = operatorName(payload);
    const known = (request.people ?? NO_PEOPLE).guessFullName(operator);
    if (known !== null) operator = `@**${known}**`;
    const event = str(payload.type);
    const topic = str(payload.event_data.repository.repo_full_name);
    if (IGNORED_EVENTS.has(event)) return null;
    let content: string;
    if (event === 'PUSH_ARTIFACT') content = `${operator} pushed image \`${imageId(payload)}\``;
    else if (event === 'SCANNING_COMPLETED') content = scanningCompleted(payload);
    else unsupportedEvent(event);
    return { topic, content, event };
  },
};
