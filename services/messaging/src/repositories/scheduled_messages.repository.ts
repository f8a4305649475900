import type { ScheduledMessageStore, ScheduledMessageUnit } from '../domain/scheduled-store.js';
import {
  SEND_LATER,
  type NewScheduledMessage,
  type ScheduledMessageChange,
  type StoredScheduledMessage,
} from '../domain/scheduled-store.js';
import type { Tx } from './prisma.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

type Row = Omit<StoredScheduledMessage, 'type'> & { type: string; createdAt: Date };

const COLUMNS = `id, realm_id AS "realmId", sender_id AS "senderId", type, channel_id AS "channelId",
  user_ids AS "userIds", topic, content, rendered_content AS "renderedContent",
  scheduled_at AS "scheduledAt", read_by_sender AS "readBySender", sending_client AS "sendingClient",
  delivered, delivered_message_id AS "deliveredMessageId", failed, failure_message AS "failureMessage",
  version, delivery_type AS "deliveryType", reminder_target_message_id AS "reminderTargetMessageId",
  created_at AS "createdAt"`;

function toStored({ createdAt: _createdAt, ...row }: Row): StoredScheduledMessage {
  return { ...row, type: row.type as StoredScheduledMessage['type'] };
}

/**
 * The scheduled_messages table, the source of truth of scheduled delivery: a row is pending until the transaction
 * that sends its message also sets `delivered` (guarded, so a message is sent at most once), or until a lasting
 * failure sets `failed`.
 */
export class ScheduledMessagesRepository implements ScheduledMessageStore {
  constructor(private readonly store: Store) {}

  /** The sender's undelivered scheduled messages (failed ones included), soonest first. */
  async undelivered(senderId: number, deliveryType = SEND_LATER): Promise<StoredScheduledMessage[]> {
    const rows = await this.store.db.scheduledMessage.findMany({
      where: { senderId, delivered: false, deliveryType },
      orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toStored);
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): ScheduledMessageUnit {
    return {
      get: (id) => this.getOn(this.store.sqlOf(tx), id),
      create: (data) => this.create(tx, data),
      edit: (id, senderId, change) => this.edit(tx, id, senderId, change),
      delete: (id, senderId, deliveryType) => this.delete(tx, id, senderId, deliveryType),
      markFailed: (id, version, message) => this.markFailed(tx, id, version, message),
    };
  }

  /** One row, read with plain SQL (the delivery path avoids Prisma's per-query cost). */
  get(id: number): Promise<StoredScheduledMessage | null> {
    return this.getOn(this.store.sql, id);
  }

  private async getOn(executor: SqlExecutor, id: number): Promise<StoredScheduledMessage | null> {
    const [row] = await executor.query<Row>(`SELECT ${COLUMNS} FROM scheduled_messages WHERE id = $1`, [id]);
    return row ? toStored(row) : null;
  }

  /**
   * Pending rows due by `dueBy`, oldest first, locked for the caller's transaction; rows another transaction holds
   * (another delivery) are skipped.
   */
  async claimDue(executor: SqlExecutor, dueBy: Date, limit: number): Promise<StoredScheduledMessage[]> {
    const rows = await executor.query<Row>(
      `SELECT ${COLUMNS} FROM scheduled_messages
        WHERE delivered = false AND failed = false AND scheduled_at <= $1 AND delivery_type = ${SEND_LATER}
        ORDER BY scheduled_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [dueBy, limit],
    );
    return rows.map(toStored);
  }

  /** Marks claimed rows delivered with their messages (rows locked by `claimDue` in the same transaction). */
  async markManyDelivered(
    executor: SqlExecutor,
    delivered: readonly { id: number; messageId: number }[],
  ): Promise<void> {
    if (delivered.length === 0) return;
    await executor.query(
      `UPDATE scheduled_messages AS s SET delivered = true, delivered_message_id = v.message_id
         FROM unnest($1::int[], $2::int[]) AS v(id, message_id) WHERE s.id = v.id`,
      [delivered.map((d) => d.id), delivered.map((d) => d.messageId)],
    );
  }

  async create(tx: Tx, data: NewScheduledMessage): Promise<StoredScheduledMessage> {
    return toStored(await tx.scheduledMessage.create({ data }));
  }

  /**
   * Applies an edit to an undelivered message (clearing a failure and raising the version); null when it was
   * delivered or deleted meanwhile (the row lock orders this against a delivery in progress).
   */
  async edit(
    tx: Tx,
    id: number,
    senderId: number,
    change: ScheduledMessageChange,
  ): Promise<StoredScheduledMessage | null> {
    const { count } = await tx.scheduledMessage.updateMany({
      where: { id, senderId, delivered: false, deliveryType: SEND_LATER },
      data: { ...change, failed: false, failureMessage: null, version: { increment: 1 } },
    });
    if (count === 0) return null;
    const row = await tx.scheduledMessage.findUnique({ where: { id } });
    return row ? toStored(row) : null;
  }

  async delete(tx: Tx, id: number, senderId: number, deliveryType = SEND_LATER): Promise<boolean> {
    const { count } = await tx.scheduledMessage.deleteMany({ where: { id, senderId, deliveryType } });
    return count > 0;
  }

  /**
   * The guarded claim, run in the transaction that sends the message: pending → delivered, only if the row is
   * still the version the message was prepared from. Concurrent claims wait for each other's row lock; the loser
   * sees `delivered` and gets false (and rolls its message back).
   */
  async markDelivered(executor: SqlExecutor, id: number, version: number, messageId: number): Promise<boolean> {
    const rows = await executor.query<{ id: number }>(
      `UPDATE scheduled_messages SET delivered = true, delivered_message_id = $3
        WHERE id = $1 AND version = $2 AND delivered = false AND failed = false RETURNING id`,
      [id, version, messageId],
    );
    return rows.length > 0;
  }

  /** A lasting failure: the row stays for the sender to fix. Null when it changed meanwhile. */
  async markFailed(tx: Tx, id: number, version: number, message: string): Promise<StoredScheduledMessage | null> {
    const { count } = await tx.scheduledMessage.updateMany({
      where: { id, version, delivered: false, failed: false },
      data: { failed: true, failureMessage: message },
    });
    const row = count > 0 ? await tx.scheduledMessage.findUnique({ where: { id } }) : null;
    return row ? toStored(row) : null;
  }

  /** Pending rows (not delivered, not failed) with their delivery times, for re-enqueueing after a Redis loss. */
  async pending(afterId: number, limit: number, dueBy?: Date): Promise<{ id: number; scheduledAt: Date }[]> {
    return this.store.db.scheduledMessage.findMany({
      where: {
        delivered: false,
        failed: false,
        id: { gt: afterId },
        ...(dueBy ? { scheduledAt: { lte: dueBy } } : {}),
      },
      select: { id: true, scheduledAt: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }
}
