import type { World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import { createHookBot, hookBotMessages, hookRequest, jsonBody, type HookBot } from './support/webhooks';

// Monitoring, CI and operations integrations through the gateway (docs/integrations.md): Sentry's issues and
// events, PagerDuty's lists of incidents (one message each) and its event filters, Opsgenie's alerts and Travis CI's
// form-encoded builds, each read back through GET /messages as the bot's owner; and UptimeRobot's notice to the
// owner about a payload its settings left fields out of. The payloads are this file's own,
// small ones shaped like the providers' events.
jest.setTimeout(120_000);

let world: World;
let bot: HookBot;

beforeAll(async () => {
  world = await newWorld();
  bot = await createHookBot(world, 'opsbot');
}, 300_000);

const post = (name: string, body: unknown, query: Record<string, string> = {}) =>
  hookRequest(world, name, { query: { api_key: bot.apiKey, stream: 'Verona', ...query }, ...jsonBody(body) });

describe('Sentry', () => {
  it('posts a new issue in the topic of its title, with the client ZulipSentryWebhook', async () => {
    const answer = await post('sentry', {
      action: 'created',
      actor: { name: 'Sentry' },
      data: {
        issue: {
          title: 'TypeError: x is undefined',
          lastSeen: '2024-05-01T10:20:30.123Z',
          level: 'error',
          assignedTo: null,
        },
      },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      display_recipient: 'Verona',
      subject: 'TypeError: x is undefined',
      client: 'ZulipSentryWebhook',
      content:
        '**New issue created:** TypeError: x is undefined\n```quote\n**level:** error\n' +
        '**timestamp:** 2024-05-01 10:20:30\n**assignee:** No one\n```',
    });
  });

  it("answers Zulip's unsupported-event error for an unknown issue action and posts nothing", async () => {
    const before = (await hookBotMessages(world, bot))[0]!.id;
    const answer = await post('sentry', {
      action: 'archived',
      actor: { name: 'Ada' },
      data: { issue: { title: 'Boom', lastSeen: '2024-05-01T10:20:30Z', assignedTo: null } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      result: 'error',
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      msg: "The 'unknown-issue-action type' event isn't currently supported by the Sentry webhook; ignoring",
    });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(before);
  });
});

describe('PagerDuty', () => {
  const incident = (type: string) => ({
    type,
    data: {
      incident: {
        id: 'P1',
        incident_number: 77,
        html_url: 'https://acme.pagerduty.com/incidents/P1',
        service: { name: 'API', html_url: 'https://acme.pagerduty.com/services/S1' },
        assigned_to_user: { email: 'kim@acme.example', html_url: 'https://acme.pagerduty.com/users/U1' },
        trigger_summary_data: { subject: 'Latency above 2s' },
      },
    },
  });

  it('posts one message per entry of a V1 list, in order, in the topic "Incident <number>"', async () => {
    const answer = await post('pagerduty', {
      messages: [incident('incident.trigger'), incident('incident.acknowledge')],
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const messages = await hookBotMessages(world, bot, 2);
    expect(messages.map((m) => [m.subject, m.content])).toEqual([
      [
        'Incident 77',
        'Incident [77](https://acme.pagerduty.com/incidents/P1) triggered by [API](https://acme.pagerduty.com/services/S1) ' +
          '(assigned to [kim](https://acme.pagerduty.com/users/U1)).\n\n``` quote\nLatency above 2s\n```',
      ],
      [
        'Incident 77',
        'Incident [77](https://acme.pagerduty.com/incidents/P1) acknowledged by [kim](https://acme.pagerduty.com/users/U1).' +
          '\n\n``` quote\nLatency above 2s\n```',
      ],
    ]);
    expect(messages[0]!.client).toBe('ZulipPagerDutyWebhook');
  });

  it('sends only the actions only_events names', async () => {
    const answer = await post(
      'pagerduty',
      { messages: [incident('incident.trigger'), incident('incident.resolve')] },
      { only_events: '["resolved"]' },
    );
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    // Oldest first: the acknowledgement before, then the resolution alone.
    const [previous, message] = await hookBotMessages(world, bot, 2);
    expect(message!.content).toBe(
      'Incident [77](https://acme.pagerduty.com/incidents/P1) resolved.\n\n``` quote\nLatency above 2s\n```',
    );
    expect(previous!.content).toContain('acknowledged by');
  });
});

describe('Opsgenie', () => {
  it("posts an alert's details in the topic of the Opsgenie integration, the URL's topic winning", async () => {
    const alert = {
      action: 'Create',
      integrationName: 'Prod',
      alert: { alertId: 'a-9', message: 'Disk 95%', tags: ['db'] },
    };
    expect((await post('opsgenie', alert)).body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]).toMatchObject({
      subject: 'Prod',
      client: 'ZulipOpsgenieWebhook',
      content:
        '[Opsgenie alert for Prod](https://app.opsgenie.com/alert/V2#/show/a-9):\n* **Type**: Create\n' +
        '* **Message**: Disk 95%\n* **Tags**: `db`',
    });
    expect((await post('opsgenie', alert, { topic: 'pager' })).body.result).toBe('success');
    expect((await hookBotMessages(world, bot))[0]!.subject).toBe('pager');
  });

  it("answers 400 with Zulip's text for a payload that is not Opsgenie's", async () => {
    const answer = await post('opsgenie', { action: 'Create' });
    expectError(
      answer as never,
      400,
      'ANOMALOUS_WEBHOOK_PAYLOAD',
      'Unable to parse request: Did Opsgenie generate this event?',
    );
  });
});

describe('Travis CI', () => {
  const build = {
    type: 'push',
    author_name: 'ada',
    status_message: 'Broken',
    compare_url: 'https://git.example/compare/a...b',
    build_url: 'https://travis.example/builds/12',
    repository: { name: 'site' },
  };
  const form = (fields: Record<string, string>, query: Record<string, string> = {}) =>
    hookRequest(world, 'travis', {
      query: { api_key: bot.apiKey, stream: 'Verona', ...query },
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('posts the form-encoded build in the topic "builds"', async () => {
    expect((await form({ payload: JSON.stringify(build) })).body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]).toMatchObject({
      subject: 'builds',
      client: 'ZulipTravisWebhook',
      content:
        'Author: ada\nBuild status: Broken :thumbs_down:\n' +
        'Details: [changes](https://git.example/compare/a...b), [build log](https://travis.example/builds/12)',
    });
  });

  it('filters pull request builds out with exclude_events, and answers a missing payload field', async () => {
    const before = (await hookBotMessages(world, bot))[0]!.id;
    const excluded = await form(
      { payload: JSON.stringify({ ...build, type: 'pull_request' }) },
      { exclude_events: '["pull_request"]' },
    );
    expect(excluded.body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(before);
    expectError((await form({})) as never, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'payload' argument");
  });
});

describe('UptimeRobot', () => {
  it('answers "Invalid payload" to a payload its settings left fields out of, and the Notification Bot tells the owner', async () => {
    const other = await createHookBot(world, 'uptimebot');
    const answer = await hookRequest(world, 'uptimerobot', {
      query: { api_key: other.apiKey, stream: 'Verona' },
      ...jsonBody({ alert_type_friendly_name: 'Down', monitor_url: 'api.example' }),
    });
    expectError(answer as never, 400, 'BAD_REQUEST', 'Invalid payload');
    const read = await world.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
    });
    const notice = (read.body.messages as Record<string, any>[])
      .filter((m) => String(m.sender_email).startsWith('notification-bot'))
      .at(-1);
    expect(notice?.content).toMatch(
      /^Hi there! Your bot Hook uptimebot just received a UptimeRobot payload that is missing\nsome data that Zulip requires\./,
    );
    expect(notice?.content).toContain('Please make sure that you set the required parameters\nwhen configuring');
  });
});
