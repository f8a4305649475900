import { front } from '../src/integrations/front.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const teammate = { _meta: { type: 'teammate' }, data: { first_name: 'Ada', last_name: 'Lovelace' } };
const conversation = { id: 'cnv_1', subject: 'Refund', recipient: { handle: 'bob@example.com' } };
const run = (body: Record<string, unknown>) => runWebhook(front, jsonRequest({ conversation, ...body }));

describe('front', () => {
  it('posts an inbound message in the topic of the conversation', () => {
    const body = {
      type: 'inbound',
      source: { data: [{ address: 'support@acme.test' }] },
      target: { data: { id: 'msg_9' } },
    };
    expect(run(body)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'cnv_1',
          content:
            '[Inbound message](https://app.frontapp.com/open/msg_9) from **bob@example.com** to **support@acme.test**:\n' +
            '```quote\n*Subject*: Refund\n```',
        },
      ],
    });
  });

  it('names teammates, rules and Gmail as who acted', () => {
    const target = { data: { first_name: 'Ada', last_name: 'Lovelace' } };
    expect(run({ type: 'assign', source: teammate, target })).toMatchObject({
      messages: [{ content: '**Ada Lovelace** assigned themselves.' }],
    });
    const rule = { _meta: { type: 'rule' }, data: { name: 'VIP' } };
    expect(run({ type: 'assign', source: rule, target })).toMatchObject({
      messages: [{ content: "**'VIP' rule** assigned **Ada Lovelace**." }],
    });
    expect(run({ type: 'archive', source: { _meta: { type: 'gmail' }, data: null } })).toMatchObject({
      messages: [{ content: 'Archived by **(gmail)**.' }],
    });
  });

  it('answers "Unknown webhook request" for an event type Front does not send', () => {
    expect(run({ type: 'reminder', source: teammate })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'Unknown webhook request' },
    });
  });
});
