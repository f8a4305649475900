import { claimEvent, type contracts } from '@confab/events';
import type {
  EventClaim,
  MessageEdit,
  NotificationRow,
  NotificationStatus,
  NotificationStore,
  SentCandidates,
} from '../domain/message-notifications.js';
import {
  notificationSettingsFrom,
  type NotificationSettings,
  type PushCandidate,
} from '../domain/notification-rules.js';
import { keepMessage, recordEditIn } from './notified-messages.sql.js';
import type { Db, Tx } from './prisma.js';

interface RowShape {
  message_id: number;
  user_id: number;
  realm_id: number;
  trigger: string;
  even_if_present: boolean;
  status: string;
}

const toRow = (r: RowShape): NotificationRow => ({
  messageId: r.message_id,
  userId: r.user_id,
  realmId: r.realm_id,
  trigger: r.trigger,
  evenIfPresent: r.even_if_present,
  status: r.status as NotificationStatus,
});

/** Notifications of messages in the push database (plain SQL through Prisma's raw queries). */
export class NotificationsRepository implements NotificationStore {
  constructor(protected readonly db: Db) {}

  protected once<T>(claim: EventClaim, fn: (tx: Tx) => Promise<T>, otherwise: T): Promise<T> {
    return this.db.$transaction(async (tx) => {
      if (!(await claimEvent(tx, claim.consumer, claim.eventId))) return otherwise;
      return fn(tx);
    });
  }

  async settingsOf(userIds: readonly number[]): Promise<Map<number, NotificationSettings>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.$queryRawUnsafe<{ user_id: number; settings: Record<string, unknown> }[]>(
      'SELECT user_id, settings FROM notification_settings WHERE user_id = ANY($1::int[])',
      [...userIds],
    );
    return new Map(rows.map((r) => [r.user_id, notificationSettingsFrom(r.settings)]));
  }

  saveSettings(
    claim: EventClaim,
    user: { userId: number; realmId: number },
    settings: NotificationSettings,
    changedAt: string,
  ): Promise<boolean> {
    return this.once(
      claim,
      async (tx) => {
        await tx.$executeRawUnsafe(
          `INSERT INTO notification_settings (user_id, realm_id, settings, updated_at, changed_at)
           VALUES ($1, $2, $3::jsonb, now(), $4::timestamptz)
           ON CONFLICT (user_id) DO UPDATE SET settings = EXCLUDED.settings, realm_id = EXCLUDED.realm_id,
             updated_at = now(), changed_at = EXCLUDED.changed_at
           WHERE notification_settings.changed_at IS NULL OR notification_settings.changed_at <= EXCLUDED.changed_at`,
          user.userId,
          user.realmId,
          JSON.stringify(settings),
          changedAt,
        );
        return true;
      },
      false,
    );
  }

  async addMissingSettings(
    rows: readonly { userId: number; realmId: number; settings: NotificationSettings }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.$executeRawUnsafe(
      `INSERT INTO notification_settings (user_id, realm_id, settings)
       SELECT * FROM unnest($1::int[], $2::int[], $3::jsonb[]) ON CONFLICT (user_id) DO NOTHING`,
      rows.map((r) => r.userId),
      rows.map((r) => r.realmId),
      rows.map((r) => JSON.stringify(r.settings)),
    );
  }

  async hasSettings(): Promise<boolean> {
    const rows = await this.db.$queryRawUnsafe<unknown[]>('SELECT 1 FROM notification_settings LIMIT 1');
    return rows.length > 0;
  }

  async recordCandidatesOfMany(items: readonly SentCandidates[]): Promise<number[]> {
    if (items.length === 0) return [];
    // One statement (atomic by itself): claim the events, and for those claimed now keep the message and its rows.
    const rows = await this.db.$queryRawUnsafe<{ message_id: number }[]>(
      `WITH batch AS (
         SELECT DISTINCT ON (event_id) * FROM unnest($2::uuid[], $3::int[], $4::int[], $5::jsonb[])
           AS b(event_id, message_id, realm_id, message)
       ), claimed AS (
         INSERT INTO processed_events (consumer, event_id) SELECT $1, event_id FROM batch
         ON CONFLICT DO NOTHING RETURNING event_id
       ), fresh AS (
         SELECT b.* FROM batch b JOIN claimed c ON c.event_id = b.event_id
       ), kept AS (
         INSERT INTO notified_messages (message_id, realm_id, message)
         SELECT message_id, realm_id, message FROM fresh ON CONFLICT (message_id) DO NOTHING
       ), candidates AS (
         INSERT INTO message_notifications (message_id, user_id, realm_id, trigger, even_if_present)
         SELECT x.m, x.u, f.realm_id, x.t, x.e
           FROM unnest($6::int[], $7::int[], $8::text[], $9::boolean[]) AS x(m, u, t, e)
           JOIN fresh f ON f.message_id = x.m
         ON CONFLICT (message_id, user_id) DO NOTHING
       )
       SELECT message_id FROM fresh`,
      items[0]!.claim.consumer,
      items.map((i) => i.claim.eventId),
      items.map((i) => i.message.id),
      items.map((i) => i.realmId),
      items.map((i) => JSON.stringify(i.message)),
      items.flatMap((i) => i.candidates.map(() => i.message.id)),
      items.flatMap((i) => i.candidates.map((c) => c.userId)),
      items.flatMap((i) => i.candidates.map((c) => c.trigger)),
      items.flatMap((i) => i.candidates.map((c) => c.evenIfPresent)),
    );
    return rows.map((r) => r.message_id);
  }

  recordEdit(claim: EventClaim, edit: MessageEdit, candidates: readonly PushCandidate[]): Promise<boolean> {
    return this.once(
      claim,
      (tx) =>
        recordEditIn(tx, 'message_notifications', edit, candidates, {
          column: 'even_if_present',
          type: 'boolean',
          values: candidates.map((c) => c.evenIfPresent),
        }),
      false,
    );
  }

  /** Keeps the message and records whom it notifies (`insert`), once per event: false when handled before. */
  protected recordWithMessage(
    claim: EventClaim,
    message: contracts.MessageRecord,
    realmId: number,
    insert: (tx: Tx) => Promise<unknown>,
  ): Promise<boolean> {
    return this.once(
      claim,
      async (tx) => {
        await keepMessage(tx, message, realmId);
        await insert(tx);
        return true;
      },
      false,
    );
  }

  markRead(claim: EventClaim, userId: number, messageIds: readonly number[]): Promise<boolean> {
    return this.once(
      claim,
      async (tx) => {
        const touched = await tx.$queryRawUnsafe<{ removal: string | null }[]>(
          `UPDATE message_notifications n SET
             status = CASE WHEN n.status IN ('pending', 'due') THEN 'read' ELSE n.status END,
             removal = CASE WHEN n.removal IS NULL AND EXISTS (SELECT 1 FROM notification_deliveries d
                 WHERE d.message_id = n.message_id AND d.user_id = n.user_id AND d.kind = 'message')
               THEN 'pending' ELSE n.removal END,
             updated_at = now()
           WHERE n.user_id = $1 AND n.message_id = ANY($2::int[])
           RETURNING n.removal`,
          userId,
          [...messageIds],
        );
        return touched.some((r) => r.removal === 'pending');
      },
      false,
    );
  }

  markDeleted(claim: EventClaim, messageIds: readonly number[]): Promise<number[]> {
    return this.once(
      claim,
      async (tx) => {
        const touched = await tx.$queryRawUnsafe<{ user_id: number; removal: string | null }[]>(
          `UPDATE message_notifications n SET
             status = CASE WHEN n.status IN ('pending', 'due') THEN 'read' ELSE n.status END,
             removal = CASE WHEN n.removal IS NULL AND EXISTS (SELECT 1 FROM notification_deliveries d
                 WHERE d.message_id = n.message_id AND d.user_id = n.user_id AND d.kind = 'message')
               THEN 'pending' ELSE n.removal END,
             updated_at = now()
           WHERE n.message_id = ANY($1::int[])
           RETURNING n.user_id, n.removal`,
          [...messageIds],
        );
        return [...new Set(touched.filter((r) => r.removal === 'pending').map((r) => r.user_id))];
      },
      [],
    );
  }

  // The delivery job's side.

  async message(messageId: number): Promise<{ realmId: number; message: contracts.MessageRecord } | null> {
    const rows = await this.db.$queryRawUnsafe<{ realm_id: number; message: contracts.MessageRecord }[]>(
      'SELECT realm_id, message FROM notified_messages WHERE message_id = $1',
      messageId,
    );
    return rows[0] ? { realmId: rows[0].realm_id, message: rows[0].message } : null;
  }

  /**
   * What a message's job starts from, in one statement: the message as kept and its open notifications (pending or
   * due, by user); null when the message is not kept.
   */
  async jobState(
    messageId: number,
  ): Promise<{ realmId: number; message: contracts.MessageRecord; open: NotificationRow[] } | null> {
    const rows = await this.db.$queryRawUnsafe<
      {
        realm_id: number;
        message: contracts.MessageRecord;
        open: (Omit<RowShape, 'message_id'> & { message_id: number })[];
      }[]
    >(
      `SELECT m.realm_id, m.message,
              (SELECT coalesce(json_agg(json_build_object('message_id', n.message_id, 'user_id', n.user_id,
                        'realm_id', n.realm_id, 'trigger', n.trigger, 'even_if_present', n.even_if_present,
                        'status', n.status) ORDER BY n.user_id), '[]'::json)
                 FROM message_notifications n WHERE n.message_id = m.message_id AND n.status IN ('pending', 'due')) AS open
         FROM notified_messages m WHERE m.message_id = $1`,
      messageId,
    );
    const row = rows[0];
    return row ? { realmId: row.realm_id, message: row.message, open: row.open.map(toRow) } : null;
  }

  /**
   * Decides the pending notifications of `undecided`: those of `present` users become present, the others due, in
   * one statement; returns the notifications still open after it (pending or due), by user.
   */
  async decidePush(
    messageId: number,
    undecided: readonly number[],
    present: readonly number[],
  ): Promise<NotificationRow[]> {
    const rows = await this.db.$queryRawUnsafe<RowShape[]>(
      `WITH moved AS (
         UPDATE message_notifications n
            SET status = CASE WHEN n.user_id = ANY($3::int[]) THEN 'present' ELSE 'due' END, updated_at = now()
          WHERE n.message_id = $1 AND n.user_id = ANY($2::int[]) AND n.status = 'pending'
         RETURNING n.message_id, n.user_id, n.realm_id, n.trigger, n.even_if_present, n.status
       )
       SELECT * FROM moved WHERE status = 'due'
       UNION ALL
       SELECT message_id, user_id, realm_id, trigger, even_if_present, status FROM message_notifications
        WHERE message_id = $1 AND status IN ('pending', 'due') AND NOT (user_id = ANY($2::int[]))
       ORDER BY user_id`,
      messageId,
      [...undecided],
      [...present],
    );
    return rows.map(toRow);
  }

  /** Moves these receivers' notifications from one status to another; those that moved meanwhile stay. */
  async setStatus(
    messageId: number,
    userIds: readonly number[],
    from: readonly NotificationStatus[],
    to: NotificationStatus,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.$executeRawUnsafe(
      `UPDATE message_notifications SET status = $4, updated_at = now()
       WHERE message_id = $1 AND user_id = ANY($2::int[]) AND status = ANY($3::text[])`,
      messageId,
      [...userIds],
      [...from],
      to,
    );
  }

  /** The devices (`p<id>`, `c<id>`) the relay accepted this kind of notification of the message for. */
  async deliveredTo(messageId: number, userId: number, kind: 'message' | 'remove'): Promise<Set<string>> {
    const rows = await this.db.$queryRawUnsafe<{ device: string }[]>(
      'SELECT device FROM notification_deliveries WHERE message_id = $1 AND user_id = $2 AND kind = $3',
      messageId,
      userId,
      kind,
    );
    return new Set(rows.map((r) => r.device));
  }

  async recordDeliveries(
    userId: number,
    device: string,
    kind: 'message' | 'remove',
    messageIds: readonly number[],
  ): Promise<void> {
    await this.db.$executeRawUnsafe(
      `INSERT INTO notification_deliveries (message_id, user_id, device, kind)
       SELECT unnest($1::int[]), $2, $3, $4 ON CONFLICT DO NOTHING`,
      [...messageIds],
      userId,
      device,
      kind,
    );
  }

  /**
   * The user's notifications with a pending removal: by device that showed them, the messages whose removal it has
   * not had yet.
   */
  async pendingRemovals(
    userId: number,
  ): Promise<{ realmId: number; messageIds: number[]; byDevice: Map<string, number[]> } | null> {
    const rows = await this.db.$queryRawUnsafe<{ message_id: number; realm_id: number; device: string | null }[]>(
      `SELECT n.message_id, n.realm_id, d.device FROM message_notifications n
         LEFT JOIN notification_deliveries d ON d.message_id = n.message_id AND d.user_id = n.user_id AND d.kind = 'message'
           AND NOT EXISTS (SELECT 1 FROM notification_deliveries r WHERE r.message_id = d.message_id
                           AND r.user_id = d.user_id AND r.device = d.device AND r.kind = 'remove')
       WHERE n.user_id = $1 AND n.removal = 'pending' ORDER BY n.message_id`,
      userId,
    );
    if (rows.length === 0) return null;
    const byDevice = new Map<string, number[]>();
    for (const r of rows) {
      if (r.device === null) continue;
      const list = byDevice.get(r.device) ?? [];
      list.push(r.message_id);
      byDevice.set(r.device, list);
    }
    return { realmId: rows[0]!.realm_id, messageIds: [...new Set(rows.map((r) => r.message_id))], byDevice };
  }

  async finishRemovals(userId: number, messageIds: readonly number[]): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE message_notifications SET removal = 'sent', updated_at = now()
       WHERE user_id = $1 AND message_id = ANY($2::int[]) AND removal = 'pending'`,
      userId,
      [...messageIds],
    );
  }

  /** Notifications and removals left unfinished for `olderThanMs` (their job may have been lost). */
  async stale(olderThanMs: number, limit: number): Promise<{ messageIds: number[]; removalUserIds: number[] }> {
    const since = new Date(Date.now() - olderThanMs);
    const messages = await this.db.$queryRawUnsafe<{ message_id: number }[]>(
      `SELECT DISTINCT message_id FROM message_notifications
       WHERE status IN ('pending', 'due') AND updated_at < $1 ORDER BY message_id LIMIT $2`,
      since,
      limit,
    );
    const removals = await this.db.$queryRawUnsafe<{ user_id: number }[]>(
      `SELECT DISTINCT user_id FROM message_notifications WHERE removal = 'pending' AND updated_at < $1 LIMIT $2`,
      since,
      limit,
    );
    return { messageIds: messages.map((r) => r.message_id), removalUserIds: removals.map((r) => r.user_id) };
  }
}
