import type { contracts, PayloadOf } from '@confab/events';
import type { EventClaim, NotificationStore } from './message-notifications.js';
import { DEFAULT_NOTIFICATION_SETTINGS, emailCandidates, type Candidate } from './notification-rules.js';

/**
 * Missed-message email (docs/architecture.md, "Missed-message email"; Zulip's zerver/lib/email_notifications.py):
 * the push service hears every message.sent in a queue of its own (`push.email`), decides with Zulip's email
 * triggers whom it would email if they were away, and records them with the message, once per event. A job per
 * message then asks whether they are away and puts each away receiver's notification into their open batch, which
 * closes `email_notifications_batching_period_seconds` after it opened; the batch's delayed job sends what is left
 * unread in it, one email per conversation. Reading or deleting a message before then leaves it out; a batch left
 * empty sends nothing.
 */

/** Where an email notification stands (email_notifications.status). */
export type EmailStatus = 'pending' | 'waiting' | 'sent' | 'present' | 'read' | 'failed';

/** The consumer that records email notifications, and keeps the settings copy in its own order. */
export const EMAIL_CONSUMER = 'push.email';

/** What the push service stores of missed-message emails (repositories/email.repository.ts). */
export interface EmailNotificationStore extends Pick<NotificationStore, 'settingsOf' | 'saveSettings'> {
  /** Records the message and whom it may email, once per event: false when the event was handled before. */
  recordEmailCandidates(
    claim: EventClaim,
    message: contracts.MessageRecord,
    realmId: number,
    candidates: readonly Candidate[],
  ): Promise<boolean>;
  /** The user read (or the messages were deleted): their emails not sent yet leave out these messages. Once. */
  leaveOut(claim: EventClaim, messageIds: readonly number[], userId?: number): Promise<void>;
}

/** Queues the job that decides whom of a message's candidates to email (presence). */
export interface EmailScheduler {
  scheduleDecision(messageId: number, requestId: string | null): Promise<void>;
}

export interface EmailContext {
  store: EmailNotificationStore;
  scheduler: EmailScheduler;
}

/** message.sent: records whom the message may email and queues the decision. */
export async function emailMessageSent(
  ctx: EmailContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageSent>,
  meta: { realmId: number; requestId: string | null },
): Promise<Candidate[]> {
  const others = payload.user_ids.filter((id) => id !== payload.message.sender_id);
  if (others.length === 0) return [];
  const known = await ctx.store.settingsOf(others);
  const candidates = emailCandidates(payload, (id) => known.get(id) ?? DEFAULT_NOTIFICATION_SETTINGS);
  if (candidates.length === 0) return [];
  const recorded = await ctx.store.recordEmailCandidates(claim, payload.message, meta.realmId, candidates);
  // A lost schedule (Redis down) is repaired by the worker's sweep of pending email notifications.
  if (recorded) await ctx.scheduler.scheduleDecision(payload.message.id, meta.requestId);
  return candidates;
}

/** message.flags_changed: a message read before its batch went out is left out of it (Zulip reads the flags). */
export async function emailFlagsChanged(
  ctx: EmailContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageFlagsChanged>,
): Promise<void> {
  if (payload.flag !== 'read' || payload.op !== 'add' || payload.messages.length === 0) return;
  await ctx.store.leaveOut(claim, payload.messages, payload.user_id);
}

/** message.deleted: a deleted message is mailed to nobody (Zulip skips deleted messages). */
export async function emailMessagesDeleted(
  ctx: EmailContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageDeleted>,
): Promise<void> {
  await ctx.store.leaveOut(claim, payload.message_ids);
}

/** A user's batch: when it goes out. */
export interface EmailBatchRef {
  id: number;
  userId: number;
  dueAt: Date;
}
