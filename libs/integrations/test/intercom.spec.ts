import { intercom } from '../src/integrations/intercom.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (topic: string, item: unknown) => runWebhook(intercom, jsonRequest({ topic, data: { item } }));
const user = { type: 'user', name: 'Ada Lovelace', email: 'ada@example.com' };

describe('intercom', () => {
  it('answers success to the HEAD request and the ping Intercom checks the URL with', () => {
    expect(runWebhook(intercom, jsonRequest('', { method: 'HEAD' }))).toEqual({ kind: 'messages', messages: [] });
    expect(run('ping', {})).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts in the topic of the contact, by name, pseudonym or email', () => {
    expect(run('user.created', user)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'User: Ada Lovelace',
          content: 'New user created:\n* **Name**: Ada Lovelace\n* **Email**: ada@example.com',
        },
      ],
    });
    const lead = { type: 'lead', name: null, pseudonym: 'Blue Fox', email: 'fox@example.com' };
    expect(run('contact.added_email', lead)).toMatchObject({
      messages: [{ topic: 'Lead: Blue Fox', content: 'New email fox@example.com added to contact.' }],
    });
  });

  it("quotes a conversation's reply as plain text", () => {
    const item = {
      user,
      assignee: { name: 'Support' },
      conversation_parts: { conversation_parts: [{ body: '<p>Try <b>restarting</b> &amp; tell us</p>' }] },
    };
    expect(run('conversation.admin.replied', item)).toMatchObject({
      messages: [
        {
          topic: 'User: Ada Lovelace',
          content: 'Support replied to the conversation:\n\n``` quote\nTry restarting & tell us\n```',
        },
      ],
    });
  });

  it('filters by topic, and refuses the topics it does not know', () => {
    expect(
      runWebhook(
        intercom,
        jsonRequest({ topic: 'user.deleted', data: { item: user } }, { query: { only_events: '["company.*"]' } }),
      ),
    ).toEqual({
      kind: 'messages',
      messages: [],
    });
    expect(run('ticket.created', {})).toMatchObject({
      kind: 'error',
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
