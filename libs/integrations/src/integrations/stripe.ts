import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { fromTimestamp, strftime } from '../toolkit/dates.js';
import { pyCapitalize, pyStr } from '../toolkit/python.js';
import { pyFixed, pySorted, pyTruthy } from '../toolkit/pyformat.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Stripe (zerver/webhooks/stripe): charges, disputes, refunds, customers, discounts, subscriptions, invoices and
 * invoice items, in the topic of the customer's id when there is one. Updates list the attributes that changed;
 * events of Stripe's other products are acknowledged without a message.
 */

/** Acknowledged without a message: Zulip's SuppressedEventError and NotImplementedEventTypeError. */
class Suppressed extends Error {}

const ZERO_DECIMAL_CURRENCIES = new Set([
  'bif',
  'djf',
  'jpy',
  'krw',
  'pyg',
  'vnd',
  'xaf',
  'xpf',
  'clp',
  'gnf',
  'kmf',
  'mga',
  'rwf',
  'vuv',
  'xof',
]);

/** "$1.00" for dollars, "1.00 AUD" otherwise (the amount is in the currency's smallest unit). */
export function amountString(amount: number, currency: string): string {
  const decimal = ZERO_DECIMAL_CURRENCIES.has(currency) ? String(amount) : pyFixed(amount * 0.01, 2);
  return currency === 'usd' ? `$${decimal}` : `${decimal} ${currency.toUpperCase()}`;
}

const NAMES_AND_URLS: Record<string, [string, string | null]> = {
  ch: ['Charge', 'charges'],
  cus: ['Customer', 'customers'],
  dp: ['Dispute', 'disputes'],
  du: ['Dispute', 'disputes'],
  file: ['File', 'files'],
  link: ['File link', 'file_links'],
  pi: ['Payment intent', 'payment_intents'],
  po: ['Payout', 'payouts'],
  prod: ['Product', 'products'],
  re: ['Refund', 'refunds'],
  tok: ['Token', 'tokens'],
  ba: ['Bank account', null],
  card: ['Card', null],
  src: ['Source', null],
  in: ['Invoice', 'invoices'],
  ii: ['Invoice item', 'invoiceitems'],
  sub: ['Subscription', 'subscriptions'],
  si: ['Subscription item', 'subscription_items'],
  mbur: ['Usage record', null],
  py: ['Payment', 'payments'],
  pyr: ['Refund', 'refunds'],
};

/** "[Charge](https://dashboard.stripe.com/charges/ch_…)" from the id's prefix. */
function linkifiedId(objectId: string, lower = false): string {
  const known = NAMES_AND_URLS[objectId.split('_')[0]!];
  if (known === undefined) throw new TypeError(`an id of an unknown kind: ${objectId}`);
  const name = lower ? known[0].toLowerCase() : known[0];
  return known[1] === null ? name : `[${name}](https://dashboard.stripe.com/${known[1]}/${objectId})`;
}

/** Timestamps of 2017 to 2033 as dates ("Nov 01, 2019, 12:00:00 UTC"), anything else as Python prints it. */
function stringify(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value) && value > 1_500_000_000 && value < 2_000_000_000) {
    return strftime(fromTimestamp(value), '%b %d, %Y, %H:%M:%S %Z');
  }
  return pyStr(value);
}

const CATEGORIES_NOT_IMPLEMENTED = new Set([
  'application_fee',
  'balance',
  'checkout_beta',
  'coupon',
  'payment_intent',
  'payout',
  'plan',
  'product',
  'recipient',
  'reporting',
  'review',
  'sigma',
  'sku',
  'source',
  'subscription_schedule',
  'topup',
  'transfer',
]);

function topicAndBody(payload: Json): [string, string] {
  const eventType = str(payload.type);
  const parts = eventType.split('.');
  let category: string;
  let resource: string;
  let event: string;
  if (parts.length === 3) [category, resource, event] = parts as [string, string, string];
  else if (parts.length === 2) {
    [resource, event] = parts as [string, string];
    category = resource;
  } else throw new TypeError(`an event type of ${parts.length} parts`);
  const object = payload.data.object;
  let topic = strOrNone(object.customer) ?? '';
  let body: string | null = null;

  const updateString = (blacklist: readonly string[] = []): string => {
    const changed = Object.keys(payload.data.previous_attributes).filter((key) => !blacklist.includes(key));
    if (changed.length === 0) throw new Suppressed();
    return pySorted(changed)
      .map((attribute) => {
        if (!(attribute in object)) throw new TypeError(`${attribute} is not in the object`);
        return `\n* ${pyCapitalize(attribute.split('_').join(' '))} is now ${stringify(object[attribute])}`;
      })
      .join('');
  };
  const defaultBody = (blacklist: readonly string[] = []): string => {
    const text = `${linkifiedId(str(object.id))} ${event.split('_').join(' ')}`;
    return event === 'updated' ? text + updateString(blacklist) : text;
  };

  if (category === 'account') {
    if (resource !== 'account') throw new Suppressed(); // Stripe Connect
    if (event === 'updated') {
      if (!('previous_attributes' in payload.data)) throw new Suppressed();
      topic = 'account updates';
      body = updateString();
    }
  }
  if (CATEGORIES_NOT_IMPLEMENTED.has(category) || category.startsWith('issuing') || category.startsWith('order')) {
    throw new Suppressed();
  }
  if (category === 'charge') {
    if (resource === 'charge') {
      if (!topic) topic = 'charges'; // only in legacy payloads
      body = `${linkifiedId(str(object.id))} for ${amountString(int(object.amount), str(object.currency))} ${event}`;
      if (pyTruthy(object.failure_code)) body += `. Failure code: ${str(object.failure_code)}`;
    }
    if (resource === 'dispute') {
      topic = 'disputes';
      body = `${defaultBody()}. Current status: ${str(object.status).split('_').join(' ')}.`;
    }
    if (resource === 'refund') {
      topic = 'refunds';
      body =
        `A ${linkifiedId(str(object.id), true)} for a ${linkifiedId(str(object.charge), true)} of ` +
        `${amountString(int(object.amount), str(object.currency))} was updated.`;
    }
  }
  if (category === 'customer') {
    if (resource === 'customer') {
      topic = str(object.id);
      body = defaultBody(['delinquent', 'currency', 'default_source']);
      if (event === 'created') {
        if (pyTruthy(object.email)) body += `\nEmail: ${str(object.email)}`;
        if (pyTruthy(object.metadata)) {
          for (const [key, value] of Object.entries(object.metadata)) body += `\n${key}: ${str(value)}`;
        }
      }
    }
    if (resource === 'discount') {
      const coupon = object.coupon;
      body =
        `Discount ${event.split('_').join(' ')} ([${str(coupon.name)}]` +
        `(https://dashboard.stripe.com/coupons/${str(coupon.id)})).`;
    }
    if (resource === 'source') body = defaultBody();
    if (resource === 'subscription') {
      body = defaultBody();
      if (event === 'trial_will_end') {
        const day = 60 * 60 * 24;
        // Basically always three.
        body += ` in ${Math.floor((int(object.trial_end) - Date.now() / 1000 + day / 2) / day)} days`;
      }
      if (event === 'created') {
        if (pyTruthy(object.plan)) {
          const nickname = strOrNone(object.plan.nickname);
          const planId = str(object.plan.id);
          body +=
            nickname !== null
              ? `\nPlan: [${nickname}](https://dashboard.stripe.com/plans/${planId})`
              : `\nPlan: https://dashboard.stripe.com/plans/${planId}`;
        }
        if (pyTruthy(object.quantity)) body += `\nQuantity: ${int(object.quantity)}`;
        if ('billing' in object) body += `\nBilling method: ${str(object.billing).split('_').join(' ')}`;
      }
    }
  }
  if (category === 'file') {
    topic = 'files';
    body = `${defaultBody()} (${str(object.purpose).split('_').join(' ')}). \nTitle: ${str(object.title)}`;
  }
  if (category === 'invoice') {
    if (event === 'upcoming') body = 'Upcoming invoice created';
    else if (
      event === 'updated' &&
      payload.data.previous_attributes.paid === false &&
      object.paid === true &&
      int(object.amount_paid) !== 0 &&
      int(object.amount_remaining) === 0
    ) {
      body = `[Invoice](https://dashboard.stripe.com/invoices/${str(object.id)}) is now paid`;
    } else {
      body = defaultBody(['lines', 'description', 'number', 'finalized_at', 'status_transitions', 'payment_intent']);
    }
    if (event === 'created') {
      const currency = str(object.currency);
      body +=
        ` (${str(object.billing_reason).split('_').join(' ')})\nTotal: ${amountString(int(object.total), currency)}` +
        `\nAmount due: ${amountString(int(object.amount_due), currency)}`;
    }
  }
  if (category === 'invoiceitem') {
    body = defaultBody(['description', 'invoice']);
    if (event === 'created') body += ` for ${amountString(int(object.amount), str(object.currency))}`;
  }
  if (body === null) return unsupportedEvent(eventType);
  return [topic, body];
}

export const stripe: Integration = {
  name: 'stripe',
  webhookName: 'Stripe',
  eventTypes: [
    'charge.dispute.closed',
    'charge.dispute.created',
    'charge.failed',
    'charge.succeeded',
    'customer.created',
    'customer.deleted',
    'customer.discount.created',
    'customer.subscription.created',
    'customer.subscription.deleted',
    'customer.subscription.trial_will_end',
    'customer.subscription.updated',
    'customer.updated',
    'invoice.created',
    'invoice.updated',
    'invoice.payment_failed',
    'invoiceitem.created',
    'charge.refund.updated',
  ],
  handle(request) {
    const payload = request.json();
    try {
      const [topic, content] = topicAndBody(payload);
      return { topic, content, event: str(payload.type) };
    } catch (err) {
      if (err instanceof Suppressed) return null;
      throw err;
    }
  },
};
