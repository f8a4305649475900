import { freshdesk } from '../src/integrations/freshdesk.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const ticket = {
  ticket_id: '42',
  ticket_subject: 'Printer on fire',
  ticket_url: 'https://acme.freshdesk.com/helpdesk/tickets/42',
  requester_name: 'Ada',
  requester_email: 'ada@example.com',
  ticket_type: 'Incident',
  ticket_priority: 'Urgent',
  ticket_status: 'Open',
};
const run = (fields: Record<string, string>) =>
  runWebhook(freshdesk, jsonRequest({ freshdesk_webhook: { ...ticket, ...fields } }));
const link = '[ticket #42](https://acme.freshdesk.com/helpdesk/tickets/42)';

describe('freshdesk', () => {
  it('posts a new ticket with its HTML description as Markdown, in the topic "#<id>: <subject>"', () => {
    const description = '<div>It <b>smokes</b>.</div><div><a href="https://acme.test/photo">photo</a></div>';
    expect(run({ triggered_event: '{ticket_action:created}', ticket_description: description })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: '#42: Printer on fire',
          content:
            `Ada <ada@example.com> created ${link}:\n\n\`\`\` quote\nIt **smokes**.\n\n[photo](https://acme.test/photo)\n\`\`\`\n\n` +
            '* **Type**: Incident\n* **Priority**: Urgent\n* **Status**: Open',
        },
      ],
    });
  });

  it('names status and priority changes, and notes', () => {
    expect(run({ triggered_event: '{status:{from:2,to:4}}' })).toMatchObject({
      messages: [{ content: `Ada <ada@example.com> updated ${link}:\n\n* **Status**: Open -> Resolved` }],
    });
    expect(run({ triggered_event: '{priority:{from:1,to:9}}' })).toMatchObject({
      messages: [{ content: `Ada <ada@example.com> updated ${link}:\n\n* **Priority**: Low -> 9` }],
    });
    expect(run({ triggered_event: '{note_type:private}' })).toMatchObject({
      messages: [{ content: `Ada <ada@example.com> added a private note to ${link}.` }],
    });
  });

  it('posts nothing for other triggers', () => {
    expect(run({ triggered_event: '{ticket_action:updated}' })).toEqual({ kind: 'messages', messages: [] });
  });

  it("answers a body that is not JSON with Malformed JSON and tells the bot's owner nothing, as Zulip's HTTP Basic views", () => {
    const outcome = runWebhook(freshdesk, jsonRequest('{"freshdesk_webhook": {'));
    expect(outcome).toMatchObject({
      kind: 'error',
      error: { status: 400, code: 'INVALID_JSON', message: 'Malformed JSON' },
    });
    expect(outcome).not.toHaveProperty('notice');
  });
});
