import type { Json } from '../../framework.js';
import { str } from '../../toolkit/wild.js';
import { senderName, type Helper } from './helpers.js';
import { strftime } from '../../toolkit/dates.js';

/** The bodies of GitHub Sponsors' events (the githubsponsors URL, which Zulip routes to the same view). */

function subscription(payload: Json): string {
  return str(payload.sponsorship.tier.name);
}

function priorSubscription(payload: Json): string {
  return str(payload.changes.tier.from.name);
}

/** The effective date's day, as "%B %d, %Y" prints it ("January 05, 2020"). */
function effectiveDate(payload: Json): string {
  const day = str(payload.effective_date).slice(0, 10);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new TypeError('effective_date is not a date');
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(year, month - 1, date));
  if (parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== date) throw new TypeError('not a date');
  return strftime(parsed, '%B %d, %Y');
}

export function cancelled({ payload }: Helper): string {
  return `${senderName(payload)} cancelled their ${subscription(payload)} subscription.`.trimEnd();
}

export function created({ payload }: Helper): string {
  return `${senderName(payload)} subscribed for ${subscription(payload)}.`.trimEnd();
}

export function edited({ payload }: Helper): string {
  return (
    `${senderName(payload)} changed who can see their sponsorship from ` +
    `${str(payload.changes.privacy_level.from)} to ${str(payload.sponsorship.privacy_level)}.`
  ).trimEnd();
}

export function pendingCancellation({ payload }: Helper): string {
  return `${senderName(payload)}'s ${subscription(payload)} subscription will be cancelled on ${effectiveDate(payload)}.`.trimEnd();
}

export function pendingTierChange({ payload }: Helper): string {
  return (
    `${senderName(payload)}'s subscription will change from ${priorSubscription(payload)} to ` +
    `${subscription(payload)} on ${effectiveDate(payload)}.`
  ).trimEnd();
}

export function tierChanged({ payload }: Helper): string {
  return `${senderName(payload)} changed their subscription from ${priorSubscription(payload)} to ${subscription(payload)}.`.trimEnd();
}
