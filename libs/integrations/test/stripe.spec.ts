import { amountString, stripe } from '../src/integrations/stripe.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (type: string, object: unknown, extra: Record<string, unknown> = {}) =>
  runWebhook(stripe, jsonRequest({ type, data: { object, ...extra } }));

describe('stripe', () => {
  it('posts a charge in the topic of its customer, with the amount in its currency', () => {
    expect(
      run('charge.succeeded', { id: 'ch_1', customer: 'cus_9', amount: 1999, currency: 'eur', failure_code: null }),
    ).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'cus_9',
          content: '[Charge](https://dashboard.stripe.com/charges/ch_1) for 19.99 EUR succeeded',
        },
      ],
    });
    expect(amountString(500, 'usd')).toBe('$5.00');
    expect(amountString(500, 'jpy')).toBe('500 JPY');
  });

  it('lists the attributes an update changed, timestamps as UTC dates', () => {
    const object = {
      id: 'sub_1',
      customer: 'cus_9',
      current_period_end: 1_700_000_000,
      cancel_at_period_end: true,
      items: {},
    };
    const previous = { current_period_end: 1, cancel_at_period_end: false };
    expect(run('customer.subscription.updated', object, { previous_attributes: previous })).toMatchObject({
      messages: [
        {
          content:
            '[Subscription](https://dashboard.stripe.com/subscriptions/sub_1) updated\n' +
            '* Cancel at period end is now True\n* Current period end is now Nov 14, 2023, 22:13:20 UTC',
        },
      ],
    });
  });

  it('words disputes, refunds and paid invoices', () => {
    expect(run('charge.dispute.created', { id: 'dp_1', status: 'needs_response' })).toMatchObject({
      messages: [
        {
          topic: 'disputes',
          content: '[Dispute](https://dashboard.stripe.com/disputes/dp_1) created. Current status: needs response.',
        },
      ],
    });
    expect(run('charge.refund.updated', { id: 're_1', charge: 'ch_2', amount: 250, currency: 'gbp' })).toMatchObject({
      messages: [
        {
          topic: 'refunds',
          content:
            'A [refund](https://dashboard.stripe.com/refunds/re_1) for a [charge](https://dashboard.stripe.com/charges/ch_2) of 2.50 GBP was updated.',
        },
      ],
    });
    const invoice = { id: 'in_1', customer: 'cus_9', paid: true, amount_paid: 100, amount_remaining: 0 };
    expect(run('invoice.updated', invoice, { previous_attributes: { paid: false } })).toMatchObject({
      messages: [{ content: '[Invoice](https://dashboard.stripe.com/invoices/in_1) is now paid' }],
    });
  });

  it("acknowledges other products' events without a message, and refuses unknown ones", () => {
    expect(run('payout.paid', { id: 'po_1' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('account.updated', { id: 'acct_1' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('radar.early_fraud_warning.created', { id: 'issfr_1' })).toMatchObject({
      kind: 'error',
      error: { status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
