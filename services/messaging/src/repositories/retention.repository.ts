import { RECIPIENT_DIRECT, type Attachment } from '../domain/types.js';
import type {
  RetentionUnit,
  ArchivedBatch,
  ArchivedMessage,
  ArchiveScope,
  RetentionChannel,
  RetentionRealm,
  RetentionStore,
} from '../domain/retention-store.js';
import { RETENTION_POLICY_BASED } from '../domain/retention.js';
import type { Tx } from './prisma.js';
import type { Store } from './store.js';

/** The columns `messages` and `archived_messages` share (Zulip's move_rows copies every field). */
const MESSAGE_COLUMNS = [
  'id',
  'realm_id',
  'sender_id',
  'recipient_id',
  'channel_id',
  'topic',
  'topic_key',
  'content',
  'rendered_content',
  'date_sent',
  'sending_client',
  'is_me_message',
  'has_attachment',
  'has_image',
  'has_link',
  'last_edit_time',
  'edit_history',
  'has_submessages',
].join(', ');
const ATTACHMENT_COLUMNS = 'id, realm_id, owner_id, file_name, path_id, size, content_type, create_time';

interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  file_name: string;
  path_id: string;
  size: number;
  content_type: string;
  create_time: Date;
}

const toAttachment = (r: AttachmentRow): Attachment => ({
  id: r.id,
  realmId: r.realm_id,
  ownerId: r.owner_id,
  fileName: r.file_name,
  pathId: r.path_id,
  size: r.size,
  contentType: r.content_type,
  createTime: r.create_time,
});

/** The archive in SQL: every move is a DELETE … RETURNING feeding an INSERT, in the caller's transaction. */
export class RetentionRepository implements RetentionStore {
  constructor(private readonly store: Store) {}

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): RetentionUnit {
    return {
      archiveBatch: (batch) => this.archiveBatch(tx, batch),
      restoreBatch: (archiveId) => this.restoreBatch(tx, archiveId),
      purgeBatches: (archiveIds) => this.purgeBatches(tx, archiveIds),
    };
  }

  async candidates(): Promise<{ realms: RetentionRealm[]; channels: RetentionChannel[] }> {
    const realms = await this.store.sql.query<{ id: number; days: number }>(
      'SELECT id, message_retention_days AS days FROM realms WHERE message_retention_days IS NOT NULL ORDER BY id',
      [],
    );
    const channels = await this.store.sql.query<{
      id: number;
      realm_id: number;
      recipient_id: number;
      days: number | null;
    }>(
      `SELECT c.id, c.realm_id, c.recipient_id, c.message_retention_days AS days
         FROM channels c JOIN realms r ON r.id = c.realm_id
        WHERE c.message_retention_days > 0
           OR (c.message_retention_days IS NULL AND r.message_retention_days IS NOT NULL)
        ORDER BY c.id`,
      [],
    );
    return {
      realms: realms.map((r) => ({ id: r.id, messageRetentionDays: r.days })),
      channels: channels.map((c) => ({
        id: c.id,
        realmId: c.realm_id,
        recipientId: c.recipient_id,
        messageRetentionDays: c.days,
      })),
    };
  }

  async archiveBatch(
    tx: Tx,
    batch: { realmId: number; scope: ArchiveScope; cutoff: Date; limit: number; at: Date },
  ): Promise<ArchivedBatch> {
    const sql = this.store.sqlOf(tx);
    const [created] = await sql.query<{ id: number }>(
      'INSERT INTO archive_transactions (realm_id, type, timestamp) VALUES ($1, $2, $3) RETURNING id',
      [batch.realmId, RETENTION_POLICY_BASED, batch.at],
    );
    const archiveId = created!.id;
    // A channel's messages by its recipient (index recipient_id, id); direct ones by the organization's direct
    // recipients. SKIP LOCKED: a message an edit holds is left for the next run rather than waited for.
    const picked =
      'recipientId' in batch.scope
        ? `SELECT id FROM messages WHERE recipient_id = $1 AND date_sent < $2 LIMIT $3 FOR UPDATE SKIP LOCKED`
        : `SELECT m.id FROM messages m
            WHERE m.recipient_id IN (SELECT id FROM recipients WHERE realm_id = $1 AND type = ${RECIPIENT_DIRECT})
              AND m.date_sent < $2 LIMIT $3 FOR UPDATE OF m SKIP LOCKED`;
    const scopeValue = 'recipientId' in batch.scope ? batch.scope.recipientId : batch.scope.directOf;
    // A message restored earlier and expired again replaces its former archive row.
    const moved = await sql.query<{
      id: number;
      channel_id: number | null;
      recipient_id: number;
      topic: string;
      topic_key: string;
    }>(
      `WITH picked AS (${picked}),
            moved AS (DELETE FROM messages m USING picked p WHERE m.id = p.id RETURNING m.*)
       INSERT INTO archived_messages (${MESSAGE_COLUMNS}, archive_transaction_id)
       SELECT ${MESSAGE_COLUMNS}, $4 FROM moved
       ON CONFLICT (id) DO UPDATE SET ${MESSAGE_COLUMNS.split(', ')
         .filter((c) => c !== 'id')
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}, archive_transaction_id = excluded.archive_transaction_id
       RETURNING id, channel_id, recipient_id, topic, topic_key`,
      [scopeValue, batch.cutoff, batch.limit, archiveId],
      { prepare: false },
    );
    if (moved.length === 0) {
      await sql.query('DELETE FROM archive_transactions WHERE id = $1', [archiveId]);
      return { archiveId: null, messages: [], archivedUploads: [], stillLinked: [] };
    }
    const ids = moved.map((m) => m.id);
    const holders = await sql.query<{ user_id: number; message_id: number }>(
      `WITH moved AS (DELETE FROM user_messages WHERE message_id = ANY($1::int[]) RETURNING *)
       INSERT INTO archived_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM moved
       ON CONFLICT (user_id, message_id) DO UPDATE SET flags = excluded.flags
       RETURNING user_id, message_id`,
      [ids],
    );
    await sql.query(
      `WITH moved AS (DELETE FROM reactions WHERE message_id = ANY($1::int[]) RETURNING *)
       INSERT INTO archived_reactions (id, message_id, user_id, emoji_name, emoji_code, reaction_type)
       SELECT id, message_id, user_id, emoji_name, emoji_code, reaction_type FROM moved
       ON CONFLICT (id) DO NOTHING`,
      [ids],
    );
    await sql.query(
      `WITH moved AS (DELETE FROM submessages WHERE message_id = ANY($1::int[]) RETURNING *)
       INSERT INTO archived_submessages (id, message_id, sender_id, msg_type, content)
       SELECT id, message_id, sender_id, msg_type, content FROM moved
       ON CONFLICT (id) DO NOTHING`,
      [ids],
    );
    const links = await sql.query<{ attachment_id: number }>(
      `WITH moved AS (DELETE FROM attachment_messages WHERE message_id = ANY($1::int[]) RETURNING *)
       INSERT INTO archived_attachment_messages (attachment_id, message_id) SELECT attachment_id, message_id FROM moved
       ON CONFLICT DO NOTHING
       RETURNING attachment_id`,
      [ids],
    );
    let archivedUploads: Attachment[] = [];
    let stillLinked: Attachment[] = [];
    const touched = [...new Set(links.map((l) => l.attachment_id))];
    if (touched.length > 0) {
      // Zulip's move_attachments_to_archive, then delete_expired_attachments: the archive keeps a copy of every
      // upload an archived message named; the live row goes once no live message names it.
      await sql.query(
        `INSERT INTO archived_attachments (${ATTACHMENT_COLUMNS})
         SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE id = ANY($1::int[])
         ON CONFLICT (id) DO NOTHING`,
        [touched],
      );
      const removed = await sql.query<AttachmentRow>(
        `DELETE FROM attachments a WHERE a.id = ANY($1::int[])
           AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id)
         RETURNING ${ATTACHMENT_COLUMNS}`,
        [touched],
      );
      archivedUploads = removed.map(toAttachment);
      const gone = new Set(removed.map((r) => r.id));
      const kept = touched.filter((id) => !gone.has(id));
      if (kept.length > 0)
        stillLinked = (
          await sql.query<AttachmentRow>(
            `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE id = ANY($1::int[]) ORDER BY id`,
            [kept],
          )
        ).map(toAttachment);
    }
    const byMessage = new Map<number, number[]>();
    for (const h of holders) byMessage.set(h.message_id, [...(byMessage.get(h.message_id) ?? []), h.user_id]);
    const messages: ArchivedMessage[] = moved.map((m) => ({
      id: m.id,
      channelId: m.channel_id,
      recipientId: m.recipient_id,
      topic: m.topic,
      topicKey: m.topic_key,
      holders: byMessage.get(m.id) ?? [],
    }));
    return { archiveId, messages, archivedUploads, stillLinked };
  }

  async archivedBatches(realmId: number, recipientId?: number): Promise<number[]> {
    const rows = await this.store.sql.query<{ id: number }>(
      `SELECT t.id FROM archive_transactions t
        WHERE t.realm_id = $1 AND t.type = $2 AND NOT t.restored
          AND ($3::int IS NULL OR EXISTS (
                SELECT 1 FROM archived_messages am WHERE am.archive_transaction_id = t.id AND am.recipient_id = $3))
        ORDER BY t.id`,
      [realmId, RETENTION_POLICY_BASED, recipientId ?? null],
    );
    return rows.map((r) => r.id);
  }

  async restoreBatch(tx: Tx, archiveId: number): Promise<number[]> {
    const sql = this.store.sqlOf(tx);
    // Zulip's restore_data_from_archive; the rows move back (rather than stay copied), so that a later expiry
    // archives the messages as they are then.
    const restored = await sql.query<{ id: number }>(
      `WITH moved AS (DELETE FROM archived_messages WHERE archive_transaction_id = $1 RETURNING *)
       INSERT INTO messages (${MESSAGE_COLUMNS}) SELECT ${MESSAGE_COLUMNS} FROM moved
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [archiveId],
    );
    const ids = restored.map((r) => r.id);
    if (ids.length > 0) {
      await sql.query(
        `WITH moved AS (DELETE FROM archived_user_messages WHERE message_id = ANY($1::int[]) RETURNING *)
         INSERT INTO user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM moved
         ON CONFLICT DO NOTHING`,
        [ids],
      );
      await sql.query(
        `WITH moved AS (DELETE FROM archived_reactions WHERE message_id = ANY($1::int[]) RETURNING *)
         INSERT INTO reactions (id, message_id, user_id, emoji_name, emoji_code, reaction_type)
         SELECT id, message_id, user_id, emoji_name, emoji_code, reaction_type FROM moved ON CONFLICT DO NOTHING`,
        [ids],
      );
      await sql.query(
        `WITH moved AS (DELETE FROM archived_submessages WHERE message_id = ANY($1::int[]) RETURNING *)
         INSERT INTO submessages (id, message_id, sender_id, msg_type, content)
         SELECT id, message_id, sender_id, msg_type, content FROM moved ON CONFLICT DO NOTHING`,
        [ids],
      );
      await sql.query(
        `INSERT INTO attachments (${ATTACHMENT_COLUMNS})
         SELECT ${ATTACHMENT_COLUMNS.split(', ')
           .map((c) => `aa.${c}`)
           .join(', ')} FROM archived_attachments aa
          WHERE aa.id IN (SELECT attachment_id FROM archived_attachment_messages WHERE message_id = ANY($1::int[]))
         ON CONFLICT DO NOTHING`,
        [ids],
      );
      await sql.query(
        `WITH moved AS (DELETE FROM archived_attachment_messages WHERE message_id = ANY($1::int[]) RETURNING *)
         INSERT INTO attachment_messages (attachment_id, message_id)
         SELECT m.attachment_id, m.message_id FROM moved m JOIN attachments a ON a.id = m.attachment_id
         ON CONFLICT DO NOTHING`,
        [ids],
      );
      await sql.query(
        `DELETE FROM archived_attachments aa
          WHERE NOT EXISTS (SELECT 1 FROM archived_attachment_messages am WHERE am.attachment_id = aa.id)
            AND EXISTS (SELECT 1 FROM attachments a WHERE a.id = aa.id)`,
        [],
      );
    }
    await sql.query('UPDATE archive_transactions SET restored = true WHERE id = $1', [archiveId]);
    return ids;
  }

  async batchesBefore(before: Date, limit: number): Promise<number[]> {
    const rows = await this.store.sql.query<{ id: number }>(
      'SELECT id FROM archive_transactions WHERE timestamp < $1 ORDER BY id LIMIT $2',
      [before, limit],
    );
    return rows.map((r) => r.id);
  }

  async purgeBatches(tx: Tx, archiveIds: readonly number[]): Promise<string[]> {
    if (archiveIds.length === 0) return [];
    const sql = this.store.sqlOf(tx);
    const messages = `SELECT id FROM archived_messages WHERE archive_transaction_id = ANY($1::int[])`;
    for (const table of [
      'archived_user_messages',
      'archived_reactions',
      'archived_submessages',
      'archived_attachment_messages',
    ])
      await sql.query(`DELETE FROM ${table} WHERE message_id IN (${messages})`, [archiveIds], { prepare: false });
    await sql.query('DELETE FROM archived_messages WHERE archive_transaction_id = ANY($1::int[])', [archiveIds]);
    await sql.query('DELETE FROM archive_transactions WHERE id = ANY($1::int[])', [archiveIds]);
    // Zulip's delete_old_unclaimed_attachments for the archive: an archived upload no archived message names is
    // deleted, and its file with it unless a live upload has the same path.
    const gone = await sql.query<{ path_id: string }>(
      `DELETE FROM archived_attachments aa
        WHERE NOT EXISTS (SELECT 1 FROM archived_attachment_messages am WHERE am.attachment_id = aa.id)
       RETURNING aa.path_id`,
      [],
    );
    if (gone.length === 0) return [];
    const live = await sql.query<{ path_id: string }>(
      `SELECT path_id FROM attachments WHERE path_id = ANY($1::text[])
       UNION SELECT path_id FROM archived_attachments WHERE path_id = ANY($1::text[])`,
      [gone.map((g) => g.path_id)],
    );
    const named = new Set(live.map((l) => l.path_id));
    return [...new Set(gone.map((g) => g.path_id))].filter((p) => !named.has(p));
  }
}
