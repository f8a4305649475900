import type { Integration, Json, WebhookMessage } from '../framework.js';
import { list, str } from '../toolkit/wild.js';
import { getOr } from '../toolkit/validators.js';

/**
 * Prometheus Alertmanager (zerver/webhooks/alertmanager): the alerts of a notification grouped by the label (or
 * annotation) the URL's `name` names (default `instance`) — one topic each — and within it by status, firing first;
 * each alert is its `desc` field (default `alertname`) with a link to its source.
 */

export const alertmanager: Integration = {
  name: 'alertmanager',
  webhookName: 'Alertmanager',
  handle(request) {
    const payload = request.json();
    const nameField = request.params.get('name') ?? 'instance';
    const descField = request.params.get('desc') ?? 'alertname';
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of list(payload.alerts) as Json[]) {
      const labels = getOr(alert, 'labels', {});
      const annotations = getOr(alert, 'annotations', {});
      const name = str(getOr(labels, nameField, getOr(annotations, nameField, '(unknown)')));
      const desc = str(getOr(labels, descField, getOr(annotations, descField, `<missing field: ${descField}>`)));
      const url = str(alert.generatorURL).replaceAll('tab=1', 'tab=0');
      if (!topics.has(name)) topics.set(name, { firing: [], resolved: [] });
      const byStatus = topics.get(name)!;
      const state = str(alert.status);
      // Zulip keys the two lists by the status itself: any other status is no Alertmanager payload.
      if (state !== 'firing' && state !== 'resolved') throw new TypeError(`unknown status ${state}`);
      byStatus[state].push(`${desc} ([source](${url}))`);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, byStatus] of topics) {
      for (const state of ['firing', 'resolved'] as const) {
        const bodies = byStatus[state];
        if (bodies.length === 0) continue;
        const [icon, title] = state === 'firing' ? [':alert:', 'FIRING'] : [':squared_ok:', 'Resolved'];
        const content =
          bodies.length === 1
            ? `${icon} **${title}** ${bodies[0]}`
            : `${icon} **${title}**\n${bodies.map((b) => `* ${b}`).join('\n')}`;
        messages.push({ topic, content });
      }
    }
    return messages;
  },
};
