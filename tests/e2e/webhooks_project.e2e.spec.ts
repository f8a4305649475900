import type { World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import { createHookBot, hookBotMessages, hookRequest, jsonBody, type HookBot } from './support/webhooks';

// The project-management and support integrations through the gateway (docs/integrations.md): Jira naming the
// organization's people (messaging looks them up for the integrations service), Freshdesk and Zendesk over HTTP
// Basic, the HEAD checks of Trello and Intercom, XML from Pivotal and form fields from Zendesk. The payloads are
// this file's own, small ones shaped like the providers' events.
jest.setTimeout(120_000);

let world: World;
let bot: HookBot;

const basic = (b: HookBot) => `Basic ${Buffer.from(`${b.email}:${b.apiKey}`).toString('base64')}`;

beforeAll(async () => {
  world = await newWorld();
  bot = await createHookBot(world, 'tracker');
}, 300_000);

const issue = (assignee: string | null) => ({
  key: 'APP-7',
  self: 'https://acme.atlassian.net/rest/api/2/issue/10007',
  fields: { summary: 'Login fails', assignee: assignee === null ? null : { emailAddress: assignee } },
});
const link = '[APP-7: Login fails](https://acme.atlassian.net/browse/APP-7)';

describe('Jira: the organization’s people by email and by name', () => {
  it('names the assignee by their full name in the organization, mentions too, with the client ZulipJiraWebhook', async () => {
    const othello = world.user('othello');
    const answer = await hookRequest(world, 'jira', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({
        webhookEvent: 'jira:issue_updated',
        issue_event_type_name: 'issue_commented',
        user: { displayName: 'Ada' },
        issue: issue(othello.email.toUpperCase()),
        comment: { body: 'Over to [~iago], *please*' },
      }),
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      display_recipient: 'Verona',
      subject: 'APP-7: Login fails',
      client: 'ZulipJiraWebhook',
      content: `Ada commented on ${link} (assigned to **${othello.fullName}**):\n\n\`\`\` quote\nOver to **Iago**, **please**\n\`\`\``,
    });
  });

  it('shows an address nobody in the organization has as it is, and ignores the events Zulip ignores', async () => {
    const answer = await hookRequest(world, 'jira', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({
        webhookEvent: 'jira:issue_updated',
        user: { displayName: 'Ada' },
        issue: issue('stranger@elsewhere.test'),
        changelog: { items: [{ field: 'assignee', fromString: null, toString: 'Stranger' }] },
      }),
    });
    expect(answer.body.result).toBe('success');
    const [message] = await hookBotMessages(world, bot);
    expect(message!.content).toBe(
      `Ada updated ${link} (assigned to **stranger@elsewhere.test**):\n\n* Changed assignee to **stranger@elsewhere.test**`,
    );
    const ignored = await hookRequest(world, 'jira', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({ webhookEvent: 'sprint_started' }),
    });
    expect(ignored.body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(message!.id);
  });
});

describe('Freshdesk and Zendesk over HTTP Basic', () => {
  it('posts a Freshdesk ticket with its HTML description as Markdown, as the bot of the Basic credentials', async () => {
    const answer = await hookRequest(world, 'freshdesk', {
      query: { stream: 'Verona' },
      body: JSON.stringify({
        freshdesk_webhook: {
          triggered_event: '{ticket_action:created}',
          ticket_id: '42',
          ticket_subject: 'Printer on fire',
          ticket_url: 'https://acme.freshdesk.com/helpdesk/tickets/42',
          requester_name: 'Ada',
          requester_email: 'ada@example.com',
          ticket_description: '<div>It <b>smokes</b>.</div>',
          ticket_type: 'Incident',
          ticket_priority: 'Urgent',
          ticket_status: 'Open',
        },
      }),
      headers: { 'content-type': 'application/json', authorization: basic(bot) },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: '#42: Printer on fire',
      client: 'ZulipFreshdeskWebhook',
      content:
        'Ada <ada@example.com> created [ticket #42](https://acme.freshdesk.com/helpdesk/tickets/42):\n\n' +
        '``` quote\nIt **smokes**.\n```\n\n* **Type**: Incident\n* **Priority**: Urgent\n* **Status**: Open',
    });
  });

  it("refuses Freshdesk without Basic credentials, with Zulip's text", async () => {
    const answer = await hookRequest(world, 'freshdesk', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({ freshdesk_webhook: {} }),
    });
    expectError(answer as never, 401, 'UNAUTHORIZED', 'Missing authorization header for basic auth');
  });

  it("posts a Zendesk trigger's form fields, the topic cut to 60 characters", async () => {
    const title = 'A very long ticket title that goes on and on and on and on';
    const answer = await hookRequest(world, 'zendesk', {
      query: { stream: 'Verona' },
      body: new URLSearchParams({ ticket_title: title, ticket_id: '7', message: 'Ada replied.' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(bot) },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({ subject: `#7: ${title}`.slice(0, 57) + '...', content: 'Ada replied.' });
  });
});

describe('what the other providers send', () => {
  it('answers success to the HEAD requests Trello and Intercom check their URL with', async () => {
    for (const name of ['trello', 'intercom']) {
      const answer = await hookRequest(world, name, { method: 'HEAD', query: { api_key: bot.apiKey } });
      expect({ name, status: answer.status }).toEqual({ name, status: 200 });
    }
  });

  it('reads Pivotal Tracker’s XML activity', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><activity><event_type>story_update</event_type>' +
      '<project_id>42</project_id><description>Ada finished &quot;Sign up&quot;</description>' +
      '<stories><story><id>7</id></story></stories></activity>';
    const answer = await hookRequest(world, 'pivotal', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: xml,
      headers: { 'content-type': 'application/xml' },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'Sign up',
      client: 'ZulipPivotalWebhook',
      content: 'Ada finished "Sign up" [(view)](https://www.pivotaltracker.com/s/projects/42/stories/7).',
    });
  });

  it("answers Front's error for an event it does not know, and Stripe's success for one it does not post", async () => {
    const front = await hookRequest(world, 'front', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({ type: 'reminder', conversation: { id: 'cnv_1' } }),
    });
    expectError(front as never, 400, 'BAD_REQUEST', 'Unknown webhook request');
    const before = (await hookBotMessages(world, bot))[0]!.id;
    const stripe = await hookRequest(world, 'stripe', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({ type: 'payout.paid', data: { object: { id: 'po_1' } } }),
    });
    expect(stripe.body).toEqual({ result: 'success', msg: '' });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(before);
  });
});
