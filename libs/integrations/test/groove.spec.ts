import { groove } from '../src/integrations/groove.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (event: string | null, body: unknown) =>
  runWebhook(groove, jsonRequest(body, { headers: event === null ? {} : { 'X-Groove-Event': event } }));
const ticket = { number: 12, title: 'Login', app_url: 'https://acme.groovehq.com/tickets/12' };

describe('groove', () => {
  it('posts assignments in the topic "notifications", with the event type', () => {
    expect(
      run('ticket_assigned', { ...ticket, state: 'opened', assignee: 'ada@example.com', assigned_group: 'Tier 2' }),
    ).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'notifications',
          content: '[#12: Login](https://acme.groovehq.com/tickets/12) (open) assigned to ada@example.com from Tier 2.',
        },
      ],
    });
    expect(run('ticket_assigned', { ...ticket, state: 'opened', assignee: null, assigned_group: null })).toEqual({
      kind: 'messages',
      messages: [],
    });
  });

  it('quotes replies, naming the agent from the API link', () => {
    const body = {
      links: {
        author: { href: 'http://api.groovehq.com/v1/agents/ada@example.com' },
        ticket: { href: 'http://api.groovehq.com/v1/tickets/12' },
      },
      app_ticket_url: 'https://acme.groovehq.com/tickets/12',
      plain_text_body: 'Fixed now',
    };
    expect(run('note_added', body)).toMatchObject({
      messages: [
        {
          content:
            'ada@example.com left a note on [ticket #12](https://acme.groovehq.com/tickets/12):\n\n``` quote\nFixed now\n```',
        },
      ],
    });
  });

  it('answers a missing event header and unknown events as Zulip does', () => {
    expect(run(null, ticket)).toMatchObject({
      kind: 'error',
      error: { status: 400, code: 'MISSING_HTTP_EVENT_HEADER' },
      notice: { kind: 'missing_header', header: 'X-Groove-Event', integrationName: 'Groove' },
    });
    expect(run('ticket_tagged', ticket)).toMatchObject({
      kind: 'error',
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
