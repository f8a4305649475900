import { alertmanager } from '../src/integrations/alertmanager.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const alert = (status: string, instance: string, name: string, extra: Record<string, unknown> = {}) => ({
  status,
  labels: { alertname: name, instance },
  annotations: { summary: `${name} on ${instance}` },
  generatorURL: `http://prometheus.acme.test/graph?g0.expr=up&g0.tab=1#${name}`,
  ...extra,
});

describe('alertmanager', () => {
  it('groups alerts by instance, one message per status, firing first, with links to their source', () => {
    const body = {
      alerts: [
        alert('resolved', 'web1', 'HighLatency'),
        alert('firing', 'web1', 'Down'),
        alert('firing', 'web1', 'DiskFull'),
        alert('firing', 'db1', 'Down'),
      ],
    };
    expect(runWebhook(alertmanager, jsonRequest(body))).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'web1',
          content:
            ':alert: **FIRING**\n* Down ([source](http://prometheus.acme.test/graph?g0.expr=up&g0.tab=0#Down))\n' +
            '* DiskFull ([source](http://prometheus.acme.test/graph?g0.expr=up&g0.tab=0#DiskFull))',
        },
        {
          stream: 'test',
          topic: 'web1',
          content:
            ':squared_ok: **Resolved** HighLatency ([source](http://prometheus.acme.test/graph?g0.expr=up&g0.tab=0#HighLatency))',
        },
        {
          stream: 'test',
          topic: 'db1',
          content: ':alert: **FIRING** Down ([source](http://prometheus.acme.test/graph?g0.expr=up&g0.tab=0#Down))',
        },
      ],
    });
  });

  it('names topics and alerts by the labels or annotations the URL says, with placeholders when absent', () => {
    const body = {
      alerts: [{ status: 'firing', labels: {}, annotations: { team: 'ops' }, generatorURL: 'http://p/' }],
    };
    expect(runWebhook(alertmanager, jsonRequest(body, { query: { name: 'team', desc: 'summary' } }))).toMatchObject({
      messages: [{ topic: 'ops', content: ':alert: **FIRING** <missing field: summary> ([source](http://p/))' }],
    });
    expect(runWebhook(alertmanager, jsonRequest(body))).toMatchObject({
      messages: [
        { topic: '(unknown)', content: ':alert: **FIRING** <missing field: alertname> ([source](http://p/))' },
      ],
    });
  });
});
