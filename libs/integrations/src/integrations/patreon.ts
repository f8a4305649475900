import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Patreon (zerver/webhooks/patreon): members joining, updating and leaving, and their pledges, in the topic
 * "membership notifications", the event named by the X-Patreon-Event header. Payloads Patreon sends for changes
 * that are no news (a declined charge) post nothing; the deprecated pledges:* events are acknowledged.
 */

const attributes = (payload: Json): Json => payload.data.attributes;
const lastChargeStatus = (payload: Json) => strOrNone(attributes(payload).last_charge_status);
const patronStatus = (payload: Json) => strOrNone(attributes(payload).patron_status);
const userName = (payload: Json) => str(attributes(payload).full_name);
const pledgeAmount = (payload: Json) => int(attributes(payload).currently_entitled_amount_cents) / 100;
const patronCount = (payload: Json) => int(payload.included[0].attributes.patron_count);
const payPerName = (payload: Json) => str(payload.included[0].attributes.pay_per_name);
const paidOrNone = (payload: Json) => [null, 'Paid'].includes(lastChargeStatus(payload));

const BODIES: Record<string, (payload: Json) => string | null> = {
  'members:create': (payload) =>
    // Never having pledged: a member who joined.
    lastChargeStatus(payload) === null && patronStatus(payload) === null
      ? `${userName(payload)} has joined as a member!`
      : null,
  'members:update': (payload) => {
    const status = patronStatus(payload);
    if (!paidOrNone(payload) || !['active_patron', 'former_patron'].includes(status!)) return null;
    return `${userName(payload)}'s membership has been updated to ${status!.split('_').join(' ')}.`;
  },
  'members:delete': (payload) =>
    paidOrNone(payload) && patronStatus(payload) !== 'declined_patron'
      ? `${userName(payload)}'s membership has ended.`
      : null,
  'members:pledge:create': (payload) =>
    paidOrNone(payload) && pledgeAmount(payload) > 0
      ? pyFormat('{} has pledged ${:.2f} per {}. :tada:\nTotal number of patrons: {}', [
          userName(payload),
          pledgeAmount(payload),
          payPerName(payload),
          patronCount(payload),
        ])
      : null,
  'members:pledge:update': (payload) =>
    paidOrNone(payload) && pledgeAmount(payload) > 0
      ? pyFormat('{} has updated their pledge to ${:.2f} per {}. :gear:', [
          userName(payload),
          pledgeAmount(payload),
          payPerName(payload),
        ])
      : null,
  'members:pledge:delete': (payload) =>
    [null, 'Paid', 'Deleted'].includes(lastChargeStatus(payload))
      ? `${userName(payload)}'s pledge has been cancelled. :cross_mark:\nTotal number of patrons: ${patronCount(payload)}`
      : null,
};

/** The deprecated pledge events. */
const IGNORED_EVENTS = new Set(['pledges:create', 'pledges:update', 'pledges:delete']);

export const patreon: Integration = {
  name: 'patreon',
  webhookName: 'Patreon',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const event = eventHeader(request, 'X-Patreon-Event', 'Patreon');
    const body = BODIES[event];
    if (body === undefined) return IGNORED_EVENTS.has(event) ? null : unsupportedEvent(event);
    const content = body(request.json());
    return content === null ? null : { topic: 'membership notifications', content, event };
  },
};
