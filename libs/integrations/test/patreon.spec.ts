import { patreon } from '../src/integrations/patreon.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const body = (attributes: Record<string, unknown>) => ({
  data: { attributes: { full_name: 'Ada', last_charge_status: 'Paid', patron_status: 'active_patron', ...attributes } },
  included: [{ attributes: { patron_count: 12, pay_per_name: 'month' } }],
});
const run = (event: string, payload: unknown) =>
  runWebhook(patreon, jsonRequest(payload, { headers: { 'X-Patreon-Event': event } }));

describe('patreon', () => {
  it('posts pledges in the topic "membership notifications"', () => {
    expect(run('members:pledge:create', body({ currently_entitled_amount_cents: 550 }))).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'membership notifications',
          content: 'Ada has pledged $5.50 per month. :tada:\nTotal number of patrons: 12',
        },
      ],
    });
    expect(run('members:update', body({}))).toMatchObject({
      messages: [{ content: "Ada's membership has been updated to active patron." }],
    });
  });

  it('posts nothing for declined charges or the deprecated pledge events', () => {
    expect(
      run('members:pledge:update', body({ last_charge_status: 'Declined', currently_entitled_amount_cents: 500 })),
    ).toEqual({
      kind: 'messages',
      messages: [],
    });
    expect(run('pledges:create', {})).toEqual({ kind: 'messages', messages: [] });
    expect(run('posts:publish', {})).toMatchObject({
      kind: 'error',
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
