import type { contracts, PayloadOf } from '@confab/events';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  editAsSent,
  notificationSettingsFrom,
  notifiedOfChannel,
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
   * Records each message and the receivers it may notify, once per event, all in one statement: the ids of the
   * messages recorded (those whose event was not handled before; nothing is written for the others).
   */
  recordCandidatesOfMany(items: readonly SentCandidates[]): Promise<number[]>;
  /**
   * A content edit, once per event: keeps the message as edited (for notifications not sent yet, unless a later edit
   * is kept already) and records the receivers the edit newly notifies, never again those who have a notification of
   * the message (one per message and device, ever) except those it was not sent to because they were present.
   * Returns whether any notification is pending now.
   */
  recordEdit(claim: EventClaim, edit: MessageEdit, candidates: readonly PushCandidate[]): Promise<boolean>;
  /**
   * The user read these messages: notifications not sent yet are dropped (status read), and those that reached a
   * device get a pending removal. Returns whether any removal is pending now. Once per event.
   */
  markRead(claim: EventClaim, userId: number, messageIds: readonly number[]): Promise<boolean>;
  /** The message was deleted: as markRead for everyone it notified (Zulip removes the notifications). */
  markDeleted(claim: EventClaim, messageIds: readonly number[]): Promise<number[]>;
}

/** One message.sent and the receivers it may notify. */
export interface SentCandidates {
  claim: EventClaim;
  message: contracts.MessageRecord;
  realmId: number;
  candidates: readonly PushCandidate[];
}

/** A message as a content edit left it, and when the edit was made (the event's time). */
export interface MessageEdit {
  message: contracts.MessageRecord;
  realmId: number;
  editedAt: string;
}

export interface EventClaim {
  consumer: string;
  eventId: string;
}

/** Queues the jobs that send notifications and their removals. */
export interface NotificationScheduler {
  /** `key` (an edit's event id) gives a job of its own, the message's first one having run already. */
  scheduleMessage(messageId: number, requestId: string | null, key?: string): Promise<void>;
  /** `scheduleMessage` for several messages, in one round trip. */
  scheduleMessages(messages: readonly { messageId: number; requestId: string | null }[]): Promise<void>;
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

/** One message.sent as the consumer takes it. */
export interface SentEvent {
  claim: EventClaim;
  payload: PayloadOf<typeof contracts.messageSent>;
  meta: { realmId: number; requestId: string | null };
}

/**
 * Consecutive message.sent events taken together (the consumer's batch, in their order): one read of the receivers'
 * settings, one statement recording every message's candidates, one round trip queueing their jobs — what a send
 * rate of tens a second needs, where one transaction and one queue call per message fell behind
 * (bench/notify-throughput.mjs). Decides as `messageSent` does, message by message.
 */
export async function messagesSent(ctx: NotificationContext, events: readonly SentEvent[]): Promise<number> {
  if (!ctx.relayConfigured || events.length === 0) return 0;
  const othersOf = (e: SentEvent) => e.payload.user_ids.filter((id) => id !== e.payload.message.sender_id);
  const settings = await settingsLookup(ctx.store, [...new Set(events.flatMap(othersOf))]);
  const items: SentCandidates[] = [];
  for (const e of events) {
    if (othersOf(e).length === 0) continue;
    const candidates = pushCandidates(e.payload, settings);
    if (candidates.length > 0)
      items.push({ claim: e.claim, message: e.payload.message, realmId: e.meta.realmId, candidates });
  }
  if (items.length === 0) return 0;
  const recorded = new Set(await ctx.store.recordCandidatesOfMany(items));
  // A lost schedule (Redis down) is repaired by the worker's sweep of pending notifications.
  const requestOf = new Map(events.map((e) => [e.payload.message.id, e.meta.requestId]));
  await ctx.scheduler.scheduleMessages(
    [...recorded].map((messageId) => ({ messageId, requestId: requestOf.get(messageId) ?? null })),
  );
  return recorded.size;
}

/** The receivers' notification settings: the copy's, else Zulip's defaults. */
export async function settingsLookup(
  store: Pick<NotificationStore, 'settingsOf'>,
  userIds: readonly number[],
): Promise<(userId: number) => NotificationSettings> {
  const known = await store.settingsOf(userIds);
  return (id) => known.get(id) ?? DEFAULT_NOTIFICATION_SETTINGS;
}

type EditEvent = { occurred_at: string; payload: PayloadOf<typeof contracts.messageUpdated> };

/**
 * A content edit as one medium sees it: the message as edited, and the receivers the edit newly notifies by it
 * (`candidatesOf`: push or email candidates, with Zulip's rules for edits, editAsSent); null for any other edit.
 */
export async function editDecision<C>(
  store: Pick<NotificationStore, 'settingsOf'>,
  event: EditEvent,
  realmId: number,
  candidatesOf: (sent: NonNullable<ReturnType<typeof editAsSent>>, ...rest: CandidateArgs) => C[],
): Promise<{ edit: MessageEdit; candidates: C[] } | null> {
  const notify = event.payload.notify;
  if (!notify) return null;
  const sent = editAsSent(event.payload);
  const candidates = sent ? candidatesOf(sent, await settingsLookup(store, sent.user_ids), notifiedOfChannel) : [];
  return { edit: { message: notify.message, realmId, editedAt: event.occurred_at }, candidates };
}

type CandidateArgs = [settingsOf: (userId: number) => NotificationSettings, except: typeof notifiedOfChannel];

/**
 * message.updated: a content edit notifies the receivers it newly mentions (or alerts), as Zulip's
 * maybe_enqueue_notifications_for_message_update (editAsSent), each at most once per message; the message is kept
 * as edited for the notifications still to be sent.
 */
export async function messageEdited(
  ctx: NotificationContext,
  claim: EventClaim,
  event: EditEvent,
  meta: { realmId: number; requestId: string | null },
): Promise<PushCandidate[]> {
  if (!ctx.relayConfigured) return [];
  const decided = await editDecision(ctx.store, event, meta.realmId, pushCandidates);
  if (!decided) return [];
  if (await ctx.store.recordEdit(claim, decided.edit, decided.candidates))
    await ctx.scheduler.scheduleMessage(decided.edit.message.id, meta.requestId, claim.eventId);
  return decided.candidates;
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
