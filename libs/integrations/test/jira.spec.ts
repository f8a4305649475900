import { jira } from '../src/integrations/jira.js';
import { runWebhook, webhookRequest, type RealmPeople } from '../src/index.js';
import { jsonRequest } from './support.js';

const issue = {
  key: 'APP-7',
  self: 'https://acme.atlassian.net/rest/api/2/issue/10007',
  fields: { summary: 'Login fails', priority: { name: 'High' }, assignee: null },
};
const link = '[APP-7: Login fails](https://acme.atlassian.net/browse/APP-7)';
const user = { displayName: 'Ada Lovelace' };

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(jira, jsonRequest(body, { query }));
const people: RealmPeople = {
  fullNameByEmail: (email) => (email.toLowerCase() === 'grace@acme.test' ? 'Grace Hopper' : null),
  guessFullName: (name) => (name.toLowerCase() === 'grace' ? 'Grace Hopper' : null),
};

describe('jira', () => {
  it('posts a created issue in the topic "<key>: <summary>", with the event type', () => {
    expect(run({ webhookEvent: 'jira:issue_created', user, issue })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'APP-7: Login fails',
          content: `Ada Lovelace created ${link}:\n\n* **Priority**: High\n* **Assignee**: no one`,
        },
      ],
    });
    expect(run({ webhookEvent: 'jira:issue_created', user, issue }, { exclude_events: '["jira:*"]' })).toEqual({
      kind: 'messages',
      messages: [],
    });
  });

  it('lists the changelog of an update, and names the assignee as the organization knows them', () => {
    const body = {
      webhookEvent: 'jira:issue_updated',
      issue_event_type_name: 'issue_assigned',
      user,
      issue: { ...issue, fields: { ...issue.fields, assignee: { emailAddress: 'grace@acme.test' } } },
      changelog: {
        items: [
          { field: 'assignee', fromString: null, toString: 'grace' },
          { field: 'priority', fromString: 'Low', toString: 'High' },
        ],
      },
    };
    const request = jsonRequest(body);
    expect(jira.peopleNamed!(request)).toEqual({ emails: ['grace@acme.test'], names: [] });
    expect(runWebhook(jira, { ...request, people })).toMatchObject({
      messages: [
        {
          content:
            `Ada Lovelace updated ${link} (assigned to **Grace Hopper**):\n\n` +
            '* Changed assignee to **Grace Hopper**\n* Changed priority from **Low** to **High**\n',
        },
      ],
    });
    // Without a user of that address the address itself is shown.
    expect(run(body)).toMatchObject({
      messages: [{ content: expect.stringContaining('(assigned to **grace@acme.test**)') }],
    });
  });

  it("turns a comment's wiki markup into Markdown, mentions included", () => {
    const body = {
      webhookEvent: 'jira:issue_updated',
      issue_event_type_name: 'issue_commented',
      user,
      issue,
      comment: { body: '*Urgent*: see {{config.yml}} and [docs|https://docs.acme.test], [~grace]\r\nbq. quoted' },
    };
    const request = jsonRequest(body);
    expect(jira.peopleNamed!(request).names).toEqual(['grace']);
    expect(runWebhook(jira, { ...request, people })).toMatchObject({
      messages: [
        {
          content:
            `Ada Lovelace commented on ${link}:\n\n\`\`\` quote\n` +
            '**Urgent**: see `config.yml` and [docs](https://docs.acme.test), **Grace Hopper**\r\n> quoted\n```',
        },
      ],
    });
  });

  it('posts the newer comment events, and transitions without a changelog', () => {
    const comment = { author: { displayName: 'Grace' }, body: 'Fixed\\!' };
    expect(run({ webhookEvent: 'comment_deleted', issue, comment })).toMatchObject({
      messages: [
        {
          topic: 'APP-7: Login fails',
          content: `Grace deleted their comment on ${link}\n\`\`\` quote\n~~Fixed!~~\n\`\`\`\n`,
        },
      ],
    });
    expect(run({ transition: { from_status: 'Open', to_status: 'Done' }, user, issue })).toMatchObject({
      messages: [{ content: `Ada Lovelace updated ${link}:\n\n* Changed status from **Open** to **Done**\n` }],
    });
  });

  it('decodes a percent-encoded topic once more, as Jira double-encodes it', () => {
    const request = webhookRequest({
      method: 'POST',
      path: '/api/v1/external/jira',
      query: 'stream=dev%2520team&topic=bug%2520reports',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookEvent: 'jira:issue_deleted', user, issue }),
    });
    expect(runWebhook(jira, request)).toEqual({
      kind: 'messages',
      messages: [{ stream: 'dev team', topic: 'bug reports', content: `Ada Lovelace deleted ${link}.` }],
    });
  });

  it('posts nothing for the events it ignores, and refuses others', () => {
    expect(run({ webhookEvent: 'sprint_started' })).toEqual({ kind: 'messages', messages: [] });
    expect(run({ webhookEvent: 'board_created' })).toMatchObject({
      kind: 'error',
      error: { status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
    expect(run({ something: 'else' })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'Unable to parse request: Did Jira generate this event?' },
    });
  });
});
