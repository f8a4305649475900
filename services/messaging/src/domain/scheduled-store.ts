import type { SqlExecutor } from './storage.js';

/** A scheduled message as stored: pending until delivered (or failed); `version` guards concurrent changes. */
export interface StoredScheduledMessage {
  id: number;
  realmId: number;
  senderId: number;
  type: 'stream' | 'private';
  channelId: number | null;
  userIds: number[];
  topic: string;
  content: string;
  renderedContent: string;
  scheduledAt: Date;
  readBySender: boolean | null;
  sendingClient: string;
  delivered: boolean;
  deliveredMessageId: number | null;
  failed: boolean;
  failureMessage: string | null;
  version: number;
  /** 1 a scheduled message (send later); 2 a reminder, sent to the sender by the Notification Bot. */
  deliveryType: number;
  /** Reminders: the message the reminder is about. */
  reminderTargetMessageId: number | null;
}

export const SEND_LATER = 1;
export const REMIND = 2;

export type NewScheduledMessage = Pick<
  StoredScheduledMessage,
  | 'realmId'
  | 'senderId'
  | 'type'
  | 'channelId'
  | 'userIds'
  | 'topic'
  | 'content'
  | 'renderedContent'
  | 'scheduledAt'
  | 'readBySender'
  | 'sendingClient'
> &
  Partial<Pick<StoredScheduledMessage, 'deliveryType' | 'reminderTargetMessageId'>>;

export type ScheduledMessageChange = Partial<
  Pick<
    StoredScheduledMessage,
    'type' | 'channelId' | 'userIds' | 'topic' | 'content' | 'renderedContent' | 'scheduledAt' | 'sendingClient'
  >
>;

/**
 * The scheduled messages, the source of truth of scheduled delivery: a row is pending until the transaction that
 * sends its message also marks it delivered (guarded: sent at most once), or until a lasting failure marks it failed.
 */
export interface ScheduledMessageStore {
  /** The sender's undelivered scheduled messages, or reminders (failed ones included), soonest first. */
  undelivered(senderId: number, deliveryType?: number): Promise<StoredScheduledMessage[]>;
  get(id: number): Promise<StoredScheduledMessage | null>;
  /** Pending rows due by `dueBy`, oldest first, locked for the caller's transaction; rows others hold are skipped. */
  claimDue(executor: SqlExecutor, dueBy: Date, limit: number): Promise<StoredScheduledMessage[]>;
  /** Marks claimed rows delivered with their messages (rows locked by `claimDue` in the same transaction). */
  markManyDelivered(executor: SqlExecutor, delivered: readonly { id: number; messageId: number }[]): Promise<void>;
  /** The guarded claim, in the transaction that sends the message: false when another delivery or edit won. */
  markDelivered(executor: SqlExecutor, id: number, version: number, messageId: number): Promise<boolean>;
  /**
   * Pending rows with their delivery times in id order, for re-enqueueing after a Redis loss; only those due by
   * `dueBy` when it is given.
   */
  pending(afterId: number, limit: number, dueBy?: Date): Promise<{ id: number; scheduledAt: Date }[]>;
}

/** Scheduled messages and reminders inside a unit of work (MessagingStore.scheduledMessages). */
export interface ScheduledMessageUnit {
  get(id: number): Promise<StoredScheduledMessage | null>;
  create(data: NewScheduledMessage): Promise<StoredScheduledMessage>;
  /** Applies an edit to an undelivered message; null when it was delivered or deleted meanwhile. */
  edit(id: number, senderId: number, change: ScheduledMessageChange): Promise<StoredScheduledMessage | null>;
  /** Deletes the sender's scheduled message (or, with REMIND, reminder) of that id. */
  delete(id: number, senderId: number, deliveryType?: number): Promise<boolean>;
  /** A lasting failure: the row stays for the sender to fix. Null when it changed meanwhile. */
  markFailed(id: number, version: number, message: string): Promise<StoredScheduledMessage | null>;
}
