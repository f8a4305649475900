import type { Integration, Json, WebhookMessage } from '../framework.js';
import { pyStr } from '../toolkit/python.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { list, str } from '../toolkit/wild.js';
import { pyStrip } from '../toolkit/pyjson.js';
import { items, num, oneOf } from '../toolkit/validators.js';

/**
 * Grafana (zerver/webhooks/grafana): the alerting of Grafana 8 and later (one message per alert, in the topic
 * "[<alertname>]", its labels, values, annotations and links) and Grafana 7's legacy alerts (in the topic of the
 * alert's title). The event type is the alert's status (firing, resolved) or the legacy state.
 */

const LEGACY_EVENT_TYPES = ['ok', 'pending', 'alerting', 'paused'];
const NEW_EVENT_TYPES = ['firing', 'resolved'];
const LEGACY_STATES = ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown'];

const status = (icon: string, state: string) => `${icon} **${state.toUpperCase()}**\n\n`;

function alertMessage(alert: Json): WebhookMessage {
  const state = oneOf(alert.status, NEW_EVENT_TYPES);
  let body = status(state === 'firing' ? ':alert:' : ':checkbox:', state);
  let topic: string;
  const labels = alert.labels;
  if ('alertname' in labels && pyTruthy(labels.alertname)) {
    const alertname = str(labels.alertname);
    topic = `[${alertname}]`;
    body += `**${alertname}**\n\n`;
  } else {
    // Without an alertname, the alert's fingerprint names it.
    topic = `[${str(alert.fingerprint)}]`;
  }
  body += `This alert was fired at <time:${str(alert.startsAt)}>.`;
  const endsAt = str(alert.endsAt);
  // Grafana's zero time: not resolved yet.
  if (endsAt !== '0001-01-01T00:00:00Z') body += `\n\nThis alert was resolved at <time:${endsAt}>.`;
  if (pyTruthy(labels)) {
    const lines = items(labels).map(([key, value]) => `- ${key}: ${str(value)}\n`);
    body += `\n\nLabels:\n${lines.join('')}\n`;
  }
  if (pyTruthy(alert.values)) {
    const lines = items(alert.values).map(([key, value]) => `- ${key}: ${pyStr(value)}\n`);
    body += `Values:\n${lines.join('')}\n`;
  } else if (pyTruthy(alert.valueString)) {
    body += `Values:\n${str(alert.valueString)}\n\n`;
  }
  if (pyTruthy(alert.annotations)) {
    const lines = items(alert.annotations).map(([key, value]) => `- ${key}: ${str(value)}\n`);
    body += `Annotations:\n${lines.join('')}`;
  }
  if (pyTruthy(alert.generatorURL)) body += `\n[Generator](${str(alert.generatorURL)})`;
  if (pyTruthy(alert.silenceURL)) body += `\n[Silence](${str(alert.silenceURL)})`;
  if (pyTruthy(alert.imageURL)) body += `\n[Image](${str(alert.imageURL)})`;
  return { topic, content: body + '\n', event: state };
}

function legacyMessage(payload: Json): WebhookMessage {
  const topic = str(payload.title);
  let evalMatches = '';
  if ('evalMatches' in payload && payload.evalMatches !== null) {
    for (const match of list(payload.evalMatches) as Json[]) {
      evalMatches += `**${str(match.metric)}:** ${pyStr(match.value === null ? null : num(match.value))}\n`;
    }
  }
  const message = 'message' in payload ? str(payload.message) + '\n\n' : '';
  const state = oneOf(payload.state, LEGACY_STATES);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  let body = `${status(icon, state)}[${str(payload.ruleName)}](${str(payload.ruleUrl)})\n\n${message}${evalMatches}`;
  if ('imageUrl' in payload) body += `\n[Click to view visualization](${str(payload.imageUrl)})`;
  return { topic, content: pyStrip(body), event: state };
}

export const grafana: Integration = {
  name: 'grafana',
  webhookName: 'Grafana',
  eventTypes: [...LEGACY_EVENT_TYPES, ...NEW_EVENT_TYPES],
  handle(request) {
    const payload = request.json();
    if (typeof payload !== 'object' || payload === null) throw new TypeError('not a dict');
    if ('alerts' in payload) return (list(payload.alerts) as Json[]).map(alertMessage);
    return legacyMessage(payload);
  },
};
