import type { contracts } from '@confab/events';
import type { EmailBatchRef, EmailNotificationStore, EmailStatus } from '../domain/email-notifications.js';
import type { EventClaim, MessageEdit } from '../domain/message-notifications.js';
import type { MissedMessage } from '../domain/missed-message-email.js';
import type { Candidate, NotificationTrigger } from '../domain/notification-rules.js';
import { NotificationsRepository } from './notifications.repository.js';
import { recordEditIn } from './notified-messages.sql.js';

interface BatchRow {
  id: number;
  user_id: number;
  due_at: Date;
}

const toBatch = (r: BatchRow): EmailBatchRef => ({ id: r.id, userId: r.user_id, dueAt: new Date(r.due_at) });

/**
 * Missed-message emails in the push database: email_notifications (who a message may email, and how far that got)
 * and email_batches (a user's emails gathered over their batching period; at most one open per user).
 */
export class EmailRepository extends NotificationsRepository implements EmailNotificationStore {
  recordEmailCandidates(
    claim: EventClaim,
    message: contracts.MessageRecord,
    realmId: number,
    candidates: readonly Candidate[],
  ): Promise<boolean> {
    return this.recordWithMessage(claim, message, realmId, (tx) =>
      tx.$executeRawUnsafe(
        `INSERT INTO email_notifications (message_id, user_id, realm_id, trigger)
         SELECT $1, u, $2, t FROM unnest($3::int[], $4::text[]) AS x(u, t)
         ON CONFLICT (message_id, user_id) DO NOTHING`,
        message.id,
        realmId,
        candidates.map((c) => c.userId),
        candidates.map((c) => c.trigger),
      ),
    );
  }

  recordEmailEdit(claim: EventClaim, edit: MessageEdit, candidates: readonly Candidate[]): Promise<boolean> {
    return this.once(claim, (tx) => recordEditIn(tx, 'email_notifications', edit, candidates, null), false);
  }

  leaveOut(claim: EventClaim, messageIds: readonly number[], userId?: number): Promise<void> {
    return this.once(
      claim,
      async (tx) => {
        await tx.$executeRawUnsafe(
          `UPDATE email_notifications SET status = 'read', updated_at = now()
           WHERE message_id = ANY($1::int[]) AND ($2::int IS NULL OR user_id = $2) AND status IN ('pending', 'waiting')`,
          [...messageIds],
          userId ?? null,
        );
      },
      undefined,
    );
  }

  // The worker's side.

  /** The message's email notifications not decided yet (whether their receiver is away). */
  async undecided(messageId: number): Promise<{ userId: number; realmId: number }[]> {
    const rows = await this.db.$queryRawUnsafe<{ user_id: number; realm_id: number }[]>(
      `SELECT user_id, realm_id FROM email_notifications WHERE message_id = $1 AND status = 'pending' ORDER BY user_id`,
      messageId,
    );
    return rows.map((r) => ({ userId: r.user_id, realmId: r.realm_id }));
  }

  /**
   * Decides the message's pending notifications in one transaction: the present receivers' are dropped, the away
   * receivers' join their open batch (opened now, due after their batching period, when they have none). Returns
   * the batches they joined. A batch that closes meanwhile (its row lock) makes the notification open the next one.
   */
  async decide(
    messageId: number,
    realmId: number,
    away: readonly { userId: number; periodSeconds: number }[],
    present: readonly number[],
  ): Promise<EmailBatchRef[]> {
    return this.db.$transaction(async (tx) => {
      if (present.length > 0) {
        await tx.$executeRawUnsafe(
          `UPDATE email_notifications SET status = 'present', updated_at = now()
           WHERE message_id = $1 AND user_id = ANY($2::int[]) AND status = 'pending'`,
          messageId,
          [...present],
        );
      }
      if (away.length === 0) return [];
      const batches = await tx.$queryRawUnsafe<BatchRow[]>(
        `INSERT INTO email_batches (user_id, realm_id, due_at)
         SELECT u, $1, now() + make_interval(secs => p) FROM unnest($2::int[], $3::int[]) AS x(u, p) ORDER BY u
         ON CONFLICT (user_id) WHERE status = 'open' DO UPDATE SET updated_at = now()
         RETURNING id, user_id, due_at`,
        realmId,
        away.map((a) => a.userId),
        away.map((a) => a.periodSeconds),
      );
      await tx.$executeRawUnsafe(
        `UPDATE email_notifications n SET status = 'waiting', batch_id = b.id, updated_at = now()
         FROM unnest($2::int[], $3::int[]) AS b(user_id, id)
         WHERE n.message_id = $1 AND n.user_id = b.user_id AND n.status = 'pending'`,
        messageId,
        batches.map((b) => b.user_id),
        batches.map((b) => b.id),
      );
      return batches.map(toBatch);
    });
  }

  /**
   * Closes the batch for sending (later messages open the next one); null when it went out already. A retry finds
   * it closed and sends what is still waiting in it.
   */
  async closeBatch(batchId: number): Promise<{ userId: number; realmId: number } | null> {
    const rows = await this.db.$queryRawUnsafe<{ user_id: number; realm_id: number }[]>(
      `UPDATE email_batches SET status = 'sending', updated_at = now()
       WHERE id = $1 AND status IN ('open', 'sending') RETURNING user_id, realm_id`,
      batchId,
    );
    return rows[0] ? { userId: rows[0].user_id, realmId: rows[0].realm_id } : null;
  }

  /** The batch's messages still to send (unread, not deleted), with why each emails the user. */
  async waiting(batchId: number): Promise<MissedMessage[]> {
    const rows = await this.db.$queryRawUnsafe<{ trigger: string; message: contracts.MessageRecord }[]>(
      `SELECT n.trigger, m.message FROM email_notifications n JOIN notified_messages m ON m.message_id = n.message_id
       WHERE n.batch_id = $1 AND n.status = 'waiting' ORDER BY n.message_id`,
      batchId,
    );
    return rows.map((r) => ({ message: r.message, trigger: r.trigger as NotificationTrigger }));
  }

  /** Marks these of the batch's waiting notifications (all when `messageIds` is absent). */
  async finishEmails(batchId: number, status: EmailStatus, messageIds?: readonly number[]): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE email_notifications SET status = $2, updated_at = now()
       WHERE batch_id = $1 AND status = 'waiting' AND ($3::int[] IS NULL OR message_id = ANY($3::int[]))`,
      batchId,
      status,
      messageIds ? [...messageIds] : null,
    );
  }

  async finishBatch(batchId: number, status: 'sent' | 'empty' | 'failed'): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE email_batches SET status = $2, updated_at = now() WHERE id = $1`,
      batchId,
      status,
    );
  }

  /**
   * What was left unfinished for `olderThanMs` (a job Redis lost, or never got): messages not decided, batches past
   * due still open or sending.
   */
  async staleEmails(olderThanMs: number, limit: number): Promise<{ messageIds: number[]; batches: EmailBatchRef[] }> {
    const since = new Date(Date.now() - olderThanMs);
    const messages = await this.db.$queryRawUnsafe<{ message_id: number }[]>(
      `SELECT DISTINCT message_id FROM email_notifications WHERE status = 'pending' AND updated_at < $1
       ORDER BY message_id LIMIT $2`,
      since,
      limit,
    );
    const batches = await this.db.$queryRawUnsafe<BatchRow[]>(
      `SELECT id, user_id, due_at FROM email_batches
       WHERE (status = 'open' AND due_at < $1) OR (status = 'sending' AND updated_at < $1) ORDER BY id LIMIT $2`,
      since,
      limit,
    );
    return { messageIds: messages.map((r) => r.message_id), batches: batches.map(toBatch) };
  }
}
