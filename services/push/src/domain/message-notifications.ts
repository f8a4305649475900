import type { contracts, PayloadOf } from '@confab/events';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  notificationSettingsFrom,
  pushCandidates,
  type NotificationSettings,
  type PushCandidate,
} from './notification-rules.js';

/**
 * Push notifications of new messages (docs/architecture.md, "Push notifications of messages"): the push service
 * hears every message.sent, decides who it would notify if they were away, and records them with the message in one
 * transaction (with the event's id, so a redelivery changes nothing); a job per message then asks whether they are
 * away, and sends to each of their devices through the relay, each delivery recorded once. Reading a notified
 * message (on any client) records its removal, which a job sends to the devices that showed it.
 */

/** Where a notification stands (message_notifications.status). */
export type NotificationStatus = 'pending' | 'due' | 'sent' | 'present' | 'read' | 'failed';

/** A receiver a message may notify. */
export interface NotificationRow {
  messageId: number;
  userId: number;
  realmId: number;
  trigger: string;
  evenIfPresent: boolean;
  status: NotificationStatus;
}

/** What the push service stores of notifications of messages (repositories/notifications.repository.ts). */
export interface NotificationStore {
  /** The notification settings of those of these users whose settings we have a copy of. */
  settingsOf(userIds: readonly number[]): Promise<Map<number, NotificationSettings>>;
  /**
   * Applies a user's settings, once per event (`claim`), unless the copy already holds settings changed later than
   * `changedAt` (another consumer keeping the copy got there first); false when the event was handled before.
   */
  saveSettings(
    claim: EventClaim,
    user: { userId: number; realmId: number },
    settings: NotificationSettings,
    changedAt: string,
  ): Promise<boolean>;
  /** Adds users' settings the copy lacks (a backfill); never overwrites what events wrote. */
  addMissingSettings(
    rows: readonly { userId: number; realmId: number; settings: NotificationSettings }[],
  ): Promise<void>;
  /** Whether the copy holds any user's settings. */
  hasSettings(): Promise<boolean>;
  /**
   * Records the message and the receivers it may notify, once per event: false when the event was handled before
   * (nothing is written then).
   */
  recordCandidates(
    claim: EventClaim,
    message: contracts.MessageRecord,
    realmId: number,
    candidates: readonly PushCandidate[],
  ): Promise<boolean>;
  /**
   * The user read these messages: notifications not sent yet are dropped (status read), and those that reached a
   * device get a pending removal. Returns whether any removal is pending now. Once per event.
   */
  markRead(claim: EventClaim, userId: number, messageIds: readonly number[]): Promise<boolean>;
  /** The message was deleted: as markRead for everyone it notified (Zulip removes the notifications). */
  markDeleted(claim: EventClaim, messageIds: readonly number[]): Promise<number[]>;
}

export interface EventClaim {
  consumer: string;
  eventId: string;
}

/** Queues the jobs that send notifications and their removals. */
export interface NotificationScheduler {
  scheduleMessage(messageId: number, requestId: string | null): Promise<void>;
  /** `key` (the event's id) tells removals of one user apart; the sweep gives none. */
  scheduleRemoval(userId: number, requestId: string | null, key?: string): Promise<void>;
}

export interface NotificationContext {
  store: NotificationStore;
  scheduler: NotificationScheduler;
  /** Whether a relay is configured; without one nothing is recorded or sent. */
  relayConfigured: boolean;
}

/** The consumer that records notifications (and keeps the settings copy, in the same queue, so in order). */
export const NOTIFICATIONS_CONSUMER = 'push.notifications';

/**
 * user_settings.changed: the copy of the user's notification settings. Each consumer that decides notifications
 * (push, email) applies it in its own queue, so its decisions follow the settings in the order it heard them.
 */
export async function applySettings(
  store: Pick<NotificationStore, 'saveSettings'>,
  claim: EventClaim,
  event: { occurred_at: string; payload: PayloadOf<typeof contracts.userSettingsChanged> },
): Promise<void> {
  const { payload } = event;
  await store.saveSettings(
    claim,
    { userId: payload.user_id, realmId: payload.realm_id },
    notificationSettingsFrom(payload.settings),
    event.occurred_at,
  );
}

/** message.sent: records who the message may notify and queues its job. */
export async function messageSent(
  ctx: NotificationContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageSent>,
  meta: { realmId: number; requestId: string | null },
): Promise<PushCandidate[]> {
  if (!ctx.relayConfigured) return [];
  const others = payload.user_ids.filter((id) => id !== payload.message.sender_id);
  if (others.length === 0) return [];
  const known = await ctx.store.settingsOf(others);
  const candidates = pushCandidates(payload, (id) => known.get(id) ?? DEFAULT_NOTIFICATION_SETTINGS);
  if (candidates.length === 0) return [];
  const recorded = await ctx.store.recordCandidates(claim, payload.message, meta.realmId, candidates);
  // A lost schedule (Redis down) is repaired by the worker's sweep of pending notifications.
  if (recorded) await ctx.scheduler.scheduleMessage(payload.message.id, meta.requestId);
  return candidates;
}

/** message.flags_changed: reading messages drops their unsent notifications and removes the shown ones. */
export async function flagsChanged(
  ctx: NotificationContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageFlagsChanged>,
  requestId: string | null,
): Promise<void> {
  if (payload.flag !== 'read' || payload.op !== 'add' || payload.messages.length === 0) return;
  if (await ctx.store.markRead(claim, payload.user_id, payload.messages)) {
    await ctx.scheduler.scheduleRemoval(payload.user_id, requestId, claim.eventId);
  }
}

/** message.deleted: the notifications of deleted messages are removed from the phones that show them. */
export async function messagesDeleted(
  ctx: NotificationContext,
  claim: EventClaim,
  payload: PayloadOf<typeof contracts.messageDeleted>,
  requestId: string | null,
): Promise<void> {
  const users = await ctx.store.markDeleted(claim, payload.message_ids);
  for (const userId of users) await ctx.scheduler.scheduleRemoval(userId, requestId, claim.eventId);
}
