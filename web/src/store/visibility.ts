/**
 * Where a channel message stands for the user (its channel's subscription, its topic's policy), and Zulip's rules
 * that read it: a muted place, and whether an unread message there is shown and counted.
 */
import type { Subscription } from './model';
import { Policy } from './personal';

/** What is known about where a message is, for the rules. */
export interface Where {
  /** The channel's subscription (channel messages). */
  subscription?: Pick<Subscription, 'is_muted' | 'desktop_notifications' | 'audible_notifications'>;
  /** The topic's visibility policy (Policy). */
  policy: number;
}

/** A channel message the user does not want to hear about: a muted topic, or a muted channel's topic not unmuted. */
export function isMutedPlace(where: Where): boolean {
  if (where.policy === Policy.muted) return true;
  return !!where.subscription?.is_muted && where.policy !== Policy.unmuted && where.policy !== Policy.followed;
}

/**
 * Whether an unread channel message is shown and counted (Inbox, sidebar, title): its channel is subscribed and it
 * is not in a muted place (`null`, a direct message, always is).
 */
export function isShownUnread(where: Where | null): boolean {
  return where === null || (where.subscription !== undefined && !isMutedPlace(where));
}

/** The Inbox's choice of topics, as Zulip's: all of them, the unmuted ones (what is counted), the followed ones. */
export type InboxFilter = 'all' | 'unmuted' | 'followed';

/**
 * Whether the Inbox shows an unread message under `filter` (`null`: a direct message). All: every subscribed
 * channel's topics, muted ones too, and direct messages; unmuted: what is counted (isShownUnread); followed: only the
 * topics one follows.
 */
export function inboxKeeps(filter: InboxFilter, where: Where | null): boolean {
  if (filter === 'unmuted') return isShownUnread(where);
  if (where === null) return filter === 'all';
  if (where.subscription === undefined) return false;
  return filter === 'all' || where.policy === Policy.followed;
}
