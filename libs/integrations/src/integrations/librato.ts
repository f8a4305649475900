import { invalid } from '@confab/errors';
import type { Integration, Json } from '../framework.js';
import { fromTimestamp, strftime } from '../toolkit/dates.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { pyStr } from '../toolkit/python.js';
import { jsonParam } from './ops-shared.js';

/**
 * Librato (zerver/webhooks/librato): alerts triggered (each violated condition with its metric) and cleared, in the
 * topic "Alert <name>", from the form field `payload`; chart snapshots, a JSON body of Slack-style attachments, in
 * the topic "Snapshots".
 */

const time = (seconds: unknown) => {
  if (typeof seconds !== 'number') throw new TypeError('a time that is not a number');
  return strftime(fromTimestamp(seconds), '%Y-%m-%d %H:%M:%S %Z');
};

function alertFacts(payload: Json): { name: string; url: string; runbook: unknown } {
  const alert = payload.alert;
  if (typeof alert !== 'object' || alert === null || !('name' in alert) || !('runbook_url' in alert)) {
    throw new TypeError('an alert without its fields');
  }
  return {
    name: pyStr(alert.name),
    url: `https://metrics.librato.com/alerts#/${pyStr(alert.id)}`,
    runbook: alert.runbook_url,
  };
}

function violated(condition: Json, violation: Json): string {
  const threshold = 'threshold' in condition ? condition.threshold : '';
  const duration = 'duration' in condition ? condition.duration : '';
  let text =
    `\n * Metric \`${pyStr(violation.metric)}\`, ${pyStr(condition.summary_function)} was ` +
    `${pyStr(condition.type)} ${pyStr(threshold)}`;
  if (pyTruthy(duration)) text += ` by ${pyStr(duration)}s`;
  return `${text}, recorded at ${time(violation.recorded_at)}.`;
}

function content(payload: Json, attachments: Json[]): string {
  if (pyTruthy(payload.clear)) {
    const alert = alertFacts(payload);
    return `Alert [alert_name](${alert.url}) has cleared at ${time(payload.trigger_time)}!`;
  }
  if (pyTruthy(payload.violations)) {
    const alert = alertFacts(payload);
    let text = `Alert [alert_name](${alert.url}) has triggered! `;
    if (pyTruthy(alert.runbook)) text += `[Reaction steps](${pyStr(alert.runbook)}):`;
    const conditions = payload.conditions as Json[];
    const violations = payload.violations['test-source'] as Json[];
    for (let i = 0; i < Math.min(conditions.length, violations.length); i++) {
      text += violated(conditions[i], violations[i]);
    }
    return text;
  }
  if (attachments.length > 0 && pyTruthy(attachments[0].image_url)) {
    return attachments
      .map((a: Json) => {
        if (!('author_name' in a) || !('title' in a)) throw new TypeError('a snapshot without its fields');
        return `**${pyStr(a.author_name)}** sent a [snapshot](${pyStr(a.image_url)}) of [metric](${pyStr(a.title)}).`;
      })
      .join('');
  }
  throw invalid('Unexpected message type');
}

export const librato: Integration = {
  name: 'librato',
  webhookName: 'Librato',
  handle(request) {
    const payload: Json = request.params.has('payload') ? jsonParam(request, 'payload') : {};
    let attachments: Json[];
    try {
      const body = JSON.parse(request.body);
      attachments = typeof body === 'object' && body !== null && 'attachments' in body ? body.attachments : [];
    } catch {
      attachments = [];
    }
    if (!pyTruthy(attachments) && !pyTruthy(payload)) throw invalid('Malformed JSON input');
    const topic = pyTruthy(attachments) ? 'Snapshots' : `Alert ${alertFacts(payload).name}`;
    return { topic, content: content(payload, attachments) };
  },
};
