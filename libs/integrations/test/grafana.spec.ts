import { grafana } from '../src/integrations/grafana.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(grafana, jsonRequest(body, { query }));

const firing = {
  status: 'firing',
  labels: { alertname: 'DiskFull', host: 'db1' },
  annotations: { summary: 'Disk above 95%' },
  startsAt: '2025-03-01T10:00:00Z',
  endsAt: '0001-01-01T00:00:00Z',
  values: { B: 97.5, C: 1 },
  generatorURL: 'https://grafana.acme.test/alerting/grafana/abc/view',
  silenceURL: 'https://grafana.acme.test/alerting/silence/new?matcher=alertname%3DDiskFull',
  fingerprint: '0f1e2d3c',
};

describe('grafana', () => {
  it('posts each alert of Grafana 8+ alerting in the topic "[<alertname>]", with labels, values and links', () => {
    const resolved = {
      ...firing,
      status: 'resolved',
      labels: {},
      annotations: {},
      values: null,
      valueString: '[ var=B value=12 ]',
      endsAt: '2025-03-01T11:00:00Z',
      generatorURL: '',
      silenceURL: '',
      imageURL: 'https://img.acme.test/panel.png',
    };
    expect(run({ status: 'firing', alerts: [firing, resolved] })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: '[DiskFull]',
          content:
            ':alert: **FIRING**\n\n**DiskFull**\n\nThis alert was fired at <time:2025-03-01T10:00:00Z>.\n\n' +
            'Labels:\n- alertname: DiskFull\n- host: db1\n\nValues:\n- B: 97.5\n- C: 1\n\n' +
            'Annotations:\n- summary: Disk above 95%\n' +
            '\n[Generator](https://grafana.acme.test/alerting/grafana/abc/view)' +
            '\n[Silence](https://grafana.acme.test/alerting/silence/new?matcher=alertname%3DDiskFull)\n',
        },
        {
          stream: 'test',
          topic: '[0f1e2d3c]',
          content:
            ':checkbox: **RESOLVED**\n\nThis alert was fired at <time:2025-03-01T10:00:00Z>.\n\n' +
            'This alert was resolved at <time:2025-03-01T11:00:00Z>.Values:\n[ var=B value=12 ]\n\n' +
            '\n[Image](https://img.acme.test/panel.png)\n',
        },
      ],
    });
  });

  it("filters by the alert's status", () => {
    expect(run({ status: 'firing', alerts: [firing] }, { only_events: '["resolved"]' })).toEqual({
      kind: 'messages',
      messages: [],
    });
  });

  it("posts a legacy (Grafana 7) alert in its title's topic, with its matches and image", () => {
    const legacy = {
      title: '[Alerting] CPU high',
      ruleName: 'CPU high',
      ruleUrl: 'https://grafana.acme.test/d/1',
      state: 'alerting',
      message: 'Look at the web tier.',
      evalMatches: [
        { metric: 'web1', value: 91 },
        { metric: 'web2', value: null },
      ],
      imageUrl: 'https://img.acme.test/cpu.png',
    };
    expect(run(legacy)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: '[Alerting] CPU high',
          content:
            ':alert: **ALERTING**\n\n[CPU high](https://grafana.acme.test/d/1)\n\nLook at the web tier.\n\n' +
            '**web1:** 91\n**web2:** None\n\n[Click to view visualization](https://img.acme.test/cpu.png)',
        },
      ],
    });
    const ok = { title: '[OK] CPU high', ruleName: 'CPU high', ruleUrl: 'https://grafana.acme.test/d/1', state: 'ok' };
    expect(run(ok)).toMatchObject({
      messages: [{ content: ':squared_ok: **OK**\n\n[CPU high](https://grafana.acme.test/d/1)' }],
    });
    expect(run({ ...ok, state: 'no_data' })).toMatchObject({
      messages: [{ content: expect.stringMatching(/^:info: \*\*NO_DATA\*\*/) }],
    });
  });

  it('answers that it cannot parse an alert state Grafana does not have', () => {
    expect(run({ title: 't', ruleName: 'r', ruleUrl: 'u', state: 'exploded' })).toMatchObject({
      kind: 'error',
      error: { message: 'Unable to parse request: Did Grafana generate this event?' },
    });
  });
});
