import { opsgenie } from '../src/integrations/opsgenie.js';
import { runWebhook } from '../src/index.js';
import { only, posted } from './ops-support.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(opsgenie, jsonRequest(body, { query }));

describe('opsgenie', () => {
  it("lists the alert's details in the topic of the Opsgenie integration", () => {
    const body = {
      action: 'AddNote',
      integrationName: 'Prod alerts',
      alert: { alertId: 'a-1', note: 'looking', message: 'Disk 90%', tags: ['db', 'eu'] },
    };
    expect(only(run(body))).toEqual({
      topic: 'Prod alerts',
      content:
        '[Opsgenie alert for Prod alerts](https://app.opsgenie.com/alert/V2#/show/a-1):\n* **Type**: AddNote\n' +
        '* **Note**: looking\n* **Message**: Disk 90%\n* **Tags**: `db`, `eu`',
    });
  });

  it('names the escalation and leaves out what the alert lacks', () => {
    const body = { action: 'Escalate', integrationName: 'Prod', escalationName: 'night', alert: { alertId: 'a-2' } };
    expect(only(run(body)).content).toBe(
      '[Opsgenie alert for Prod](https://app.opsgenie.com/alert/V2#/show/a-2):\n* **Type**: Escalate\n* **Escalation**: night',
    );
  });

  it('filters by the action', () => {
    const body = { action: 'Close', integrationName: 'Prod', alert: { alertId: 'a-3' } };
    expect(posted(run(body, { exclude_events: '["Close"]' }))).toEqual([]);
  });
});
