import type { World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import { createHookBot, hookBotMessages, hookRequest, jsonBody, type HookBot } from './support/webhooks';

// The generic integrations and monitoring ones through the gateway (docs/integrations.md): Slack-compatible incoming
// webhooks (JSON and form bodies, Slack's "ok"), the JSON formatter, Grafana's and Alertmanager's several messages
// per request, Dropbox's GET challenge, HelloSign's answer of its own beside its message, and Freshstatus telling the
// bot's owner of a payload without what Zulip needs. The payloads are this file's own, small ones shaped like the
// providers' events; the messages are read back through GET /messages.
jest.setTimeout(120_000);

let world: World;
let bot: HookBot;

beforeAll(async () => {
  world = await newWorld();
  bot = await createHookBot(world, 'monitor');
}, 300_000);

const inVerona = () => ({ api_key: bot.apiKey, stream: 'Verona' });

/** Hamlet's newest direct message from the organization's Notification Bot. */
async function newestNotice(): Promise<Record<string, any> | undefined> {
  const read = await world.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 5,
    num_after: 0,
    apply_markdown: false,
    narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
  });
  const messages = read.body.messages as Record<string, any>[];
  return messages.filter((m) => String(m.sender_email).startsWith('notification-bot')).at(-1);
}

describe('Slack-compatible incoming webhooks', () => {
  it("posts a JSON payload's text as Markdown, in the topic of its channel, and answers Slack's ok", async () => {
    const answer = await hookRequest(world, 'slack_incoming', {
      query: inVerona(),
      ...jsonBody({ channel: '#deploys', text: 'Release <https://ci.acme.test/r/9|r9> is *live*' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '', ok: true });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      display_recipient: 'Verona',
      subject: 'deploys',
      client: 'ZulipSlackIncomingWebhook',
      content: 'Release [r9](https://ci.acme.test/r/9) is **live**',
    });
  });

  it('reads the `payload` form field, and posts in the empty topic without a channel', async () => {
    const payload = JSON.stringify({
      attachments: [{ title: 'Nightly', title_link: 'https://ci.acme.test/n', text: 'All _green_' }],
    });
    const answer = await hookRequest(world, 'slack_incoming', {
      query: inVerona(),
      body: new URLSearchParams({ payload }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '', ok: true });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({ subject: '', content: '## [Nightly](https://ci.acme.test/n)\n\nAll *green*' });
  });
});

describe('the JSON formatter', () => {
  it('posts the body pretty-printed as Zulip prints it, in the topic "JSON"', async () => {
    const answer = await hookRequest(world, 'json', { query: inVerona(), ...jsonBody({ ok: true, who: 'Zoë' }) });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'JSON',
      client: 'ZulipJSONWebhook',
      content: '```json\n{\n  "ok": true,\n  "who": "Zo\\u00eb"\n}\n```',
    });
  });
});

describe('Grafana and Alertmanager', () => {
  it("posts one Grafana message per alert, each in its alertname's topic, and filters by status", async () => {
    const alert = (status: string, alertname: string) => ({
      status,
      labels: { alertname },
      annotations: {},
      startsAt: '2025-03-01T10:00:00Z',
      endsAt: status === 'firing' ? '0001-01-01T00:00:00Z' : '2025-03-01T10:30:00Z',
      generatorURL: `https://grafana.acme.test/alerting/${alertname}`,
      silenceURL: '',
      fingerprint: alertname.toLowerCase(),
    });
    const body = { status: 'firing', alerts: [alert('firing', 'DiskFull'), alert('resolved', 'CpuHot')] };
    const answer = await hookRequest(world, 'grafana', { query: inVerona(), ...jsonBody(body) });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const messages = await hookBotMessages(world, bot, 2);
    expect(messages.map((m) => [m.subject, m.content])).toEqual([
      [
        '[DiskFull]',
        ':alert: **FIRING**\n\n**DiskFull**\n\nThis alert was fired at <time:2025-03-01T10:00:00Z>.\n\n' +
          'Labels:\n- alertname: DiskFull\n\n\n[Generator](https://grafana.acme.test/alerting/DiskFull)',
      ],
      [
        '[CpuHot]',
        ':checkbox: **RESOLVED**\n\n**CpuHot**\n\nThis alert was fired at <time:2025-03-01T10:00:00Z>.\n\n' +
          'This alert was resolved at <time:2025-03-01T10:30:00Z>.\n\nLabels:\n- alertname: CpuHot\n\n\n' +
          '[Generator](https://grafana.acme.test/alerting/CpuHot)',
      ],
    ]);
    const newest = messages[1]!.id as number;
    const filtered = await hookRequest(world, 'grafana', {
      query: { ...inVerona(), only_events: '["resolved"]' },
      ...jsonBody({ status: 'firing', alerts: [alert('firing', 'MemLow')] }),
    });
    expect(filtered.body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(newest);
  });

  it("posts Alertmanager's alerts grouped by instance and status", async () => {
    const alert = (status: string, alertname: string) => ({
      status,
      labels: { alertname, instance: 'web1' },
      generatorURL: 'http://prometheus.acme.test/graph?g0.tab=1',
    });
    const body = { alerts: [alert('firing', 'Down'), alert('firing', 'Slow'), alert('resolved', 'Full')] };
    const answer = await hookRequest(world, 'alertmanager', { query: inVerona(), ...jsonBody(body) });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const messages = await hookBotMessages(world, bot, 2);
    expect(messages.map((m) => [m.subject, m.content, m.client])).toEqual([
      [
        'web1',
        ':alert: **FIRING**\n* Down ([source](http://prometheus.acme.test/graph?g0.tab=0))\n' +
          '* Slow ([source](http://prometheus.acme.test/graph?g0.tab=0))',
        'ZulipAlertmanagerWebhook',
      ],
      [
        'web1',
        ':squared_ok: **Resolved** Full ([source](http://prometheus.acme.test/graph?g0.tab=0))',
        'ZulipAlertmanagerWebhook',
      ],
    ]);
  });
});

describe('answers of the providers’ own', () => {
  it("answers Dropbox's GET challenge with the challenge as plain text, and wants it", async () => {
    const answer = await hookRequest(world, 'dropbox', {
      method: 'GET',
      query: { api_key: bot.apiKey, challenge: 'dbx-4f2a9c' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; charset=utf-8$/i);
    expect(answer.text).toBe('dbx-4f2a9c');
    const missing = await hookRequest(world, 'dropbox', { method: 'GET', query: { api_key: bot.apiKey } });
    expectError(missing as never, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'challenge' argument");
  });

  it('answers HelloSign with the text it expects, after posting the signatures', async () => {
    const event = {
      signature_request: {
        title: 'Lease',
        signatures: [
          { signer_name: 'Ada', status_code: 'signed' },
          { signer_name: 'Grace', status_code: 'awaiting_signature' },
        ],
      },
    };
    const answer = await hookRequest(world, 'hellosign', {
      query: inVerona(),
      body: new URLSearchParams({ json: JSON.stringify(event) }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.body).toEqual({ result: 'success', msg: 'Hello API Event Received' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'Lease',
      content: 'The `Lease` document is awaiting the signature of Grace, and was just signed by Ada.',
    });
  });

  it("answers Freshstatus's payload without a title 400 Invalid payload, and tells the bot's owner", async () => {
    const status = await createHookBot(world, 'statuspage');
    const answer = await hookRequest(world, 'freshstatus', {
      query: { api_key: status.apiKey, stream: 'Verona' },
      ...jsonBody({ id: '12', message: 'Done', incident_status: 'Closed', event_data: { event_id: 3 } }),
    });
    expectError(answer as never, 400, 'BAD_REQUEST', 'Invalid payload');
    const notice = await newestNotice();
    expect(notice?.content).toMatch(
      /^Hi there! Your bot Hook statuspage just received a Freshstatus payload that is missing\nsome data that Zulip requires\./,
    );
    expect(notice?.content).toMatch(/Contact \S+@\S+ if you\nneed further help!$/);
  });
});
