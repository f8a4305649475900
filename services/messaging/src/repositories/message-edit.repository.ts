import type { contracts } from '@confab/events';
import type { EditHistoryEntry, EditUnit, EditWrite, LockedMessage, MessageEditStore } from '../domain/edit-store.js';
import { VISIBILITY_FOLLOWED, type TopicPolicyChange, type VisibilityPolicy } from '../domain/types.js';
import { notifyFactsSql } from './send-sql.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';
import { writeTopicPolicies } from './user_topics.repository.js';

/** Message edits in plain SQL (docs/architecture.md, "Data access"): an edit's part of a unit of work, and the reads. */
export class MessageEditRepository implements MessageEditStore {
  constructor(private readonly store: Store) {}

  private get sql(): SqlExecutor {
    return this.store.sql;
  }

  /** This part of a unit of work (a PlainStore part, repositories/messaging-database.ts), joined to `executor`. */
  on(executor: SqlExecutor): EditUnit {
    return new SqlEditUnit(executor);
  }

  async topicMessageDates(
    recipientId: number,
    topicKey: string,
    options: { receivedBy?: number },
  ): Promise<{ id: number; dateSent: Date }[]> {
    const rows = await this.sql.query<{ id: number; date_sent: Date }>(
      `SELECT m.id, m.date_sent FROM messages m
        WHERE m.recipient_id = $1 AND m.topic_key = $2
          AND ($3::int IS NULL OR EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $3))
        ORDER BY m.id`,
      [recipientId, topicKey, options.receivedBy ?? null],
    );
    return rows.map((r) => ({ id: r.id, dateSent: r.date_sent }));
  }

  async history(messageId: number): Promise<EditHistoryEntry[]> {
    const rows = await this.sql.query<{ edit_history: EditHistoryEntry[] | null }>(
      'SELECT edit_history FROM messages WHERE id = $1',
      [messageId],
    );
    return rows[0]?.edit_history ?? [];
  }

  async lastInTopic(recipientId: number, topicKey: string): Promise<number | null> {
    const rows = await this.sql.query<{ id: number }>(
      'SELECT id FROM messages WHERE recipient_id = $1 AND topic_key = $2 ORDER BY id DESC LIMIT 1',
      [recipientId, topicKey],
    );
    return rows[0]?.id ?? null;
  }

  async topicFollowers(channelId: number, topicKey: string): Promise<number[]> {
    const rows = await this.sql.query<{ user_id: number }>(
      'SELECT user_id FROM user_topics WHERE channel_id = $1 AND topic_key = $2 AND visibility_policy = $3',
      [channelId, topicKey, VISIBILITY_FOLLOWED],
    );
    return rows.map((r) => r.user_id);
  }
}

class SqlEditUnit implements EditUnit {
  constructor(private readonly db: SqlExecutor) {}

  async topicPolicies(channelId: number, topicKey: string): Promise<Map<number, VisibilityPolicy>> {
    const rows = await this.db.query<{ user_id: number; visibility_policy: VisibilityPolicy }>(
      'SELECT user_id, visibility_policy FROM user_topics WHERE channel_id = $1 AND topic_key = $2',
      [channelId, topicKey],
    );
    return new Map(rows.map((r) => [r.user_id, r.visibility_policy]));
  }

  setTopicPolicies(changes: readonly TopicPolicyChange[], at: Date): Promise<void> {
    return writeTopicPolicies(this.db, changes, at);
  }

  async notifyFacts(
    userIds: readonly number[],
    channelId: number | null,
    topicKey: string,
  ): Promise<contracts.MessageNotifyFacts> {
    const rows = await this.db.query<{ facts: contracts.MessageNotifyFacts }>(
      `SELECT ${notifyFactsSql('(SELECT unnest($1::int[]) AS user_id)', '$2::int', '$3::text')} AS facts`,
      [[...userIds], channelId, topicKey],
    );
    return rows[0]!.facts;
  }

  async lock(messageId: number): Promise<LockedMessage | null> {
    const rows = await this.db.query<{
      channel_id: number | null;
      topic_key: string;
      content: string;
      rendered_content: string;
    }>('SELECT channel_id, topic_key, content, rendered_content FROM messages WHERE id = $1 FOR UPDATE', [messageId]);
    const row = rows[0];
    if (!row) return null;
    return {
      channelId: row.channel_id,
      topicKey: row.topic_key,
      content: row.content,
      renderedContent: row.rendered_content,
    };
  }

  async topicMessageIds(
    recipientId: number,
    topicKey: string,
    options: { fromId?: number; receivedBy?: number; limit?: number },
  ): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT m.id FROM messages m
        WHERE m.recipient_id = $1 AND m.topic_key = $2 AND m.id >= $3
          AND ($4::int IS NULL OR EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $4))
        ORDER BY m.id LIMIT $5`,
      [recipientId, topicKey, options.fromId ?? 0, options.receivedBy ?? null, options.limit ?? null],
    );
    return rows.map((r) => r.id);
  }

  async setRendering(messageId: number, renderedContent: string, hasImage: boolean): Promise<void> {
    await this.db.query('UPDATE messages SET rendered_content = $2, has_image = $3 WHERE id = $1', [
      messageId,
      renderedContent,
      hasImage,
    ]);
  }

  async rows(messageId: number): Promise<Map<number, number>> {
    const rows = await this.db.query<{ user_id: number; flags: number }>(
      'SELECT user_id, flags FROM user_messages WHERE message_id = $1',
      [messageId],
    );
    return new Map(rows.map((r) => [r.user_id, r.flags]));
  }

  async setFlags(messageId: number, flags: ReadonlyMap<number, number>): Promise<void> {
    if (flags.size === 0) return;
    await this.db.query(
      `UPDATE user_messages um SET flags = f.flags
         FROM unnest($2::int[], $3::int[]) AS f(user_id, flags)
        WHERE um.message_id = $1 AND um.user_id = f.user_id`,
      [messageId, [...flags.keys()], [...flags.values()]],
    );
  }

  async everSubscribed(channelId: number): Promise<number[]> {
    const rows = await this.db.query<{ user_id: number }>(
      'SELECT DISTINCT user_id FROM subscriptions WHERE channel_id = $1',
      [channelId],
    );
    return rows.map((r) => r.user_id);
  }

  async removeRows(userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
    if (userIds.length === 0 || messageIds.length === 0) return;
    await this.db.query('DELETE FROM user_messages WHERE user_id = ANY($1::int[]) AND message_id = ANY($2::int[])', [
      userIds,
      messageIds,
    ]);
  }

  async addRows(userIds: readonly number[], messageIds: readonly number[], flags: number): Promise<void> {
    if (userIds.length === 0 || messageIds.length === 0) return;
    await this.db.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT u, m, $3 FROM unnest($1::int[]) AS u CROSS JOIN unnest($2::int[]) AS m
       ON CONFLICT DO NOTHING`,
      [userIds, messageIds, flags],
    );
  }

  /** One statement: the target's content, every changed message's place, edit time and history entry. */
  async apply(write: EditWrite): Promise<void> {
    const { content, move } = write;
    await this.db.query(
      `UPDATE messages SET
         last_edit_time = $3,
         edit_history = jsonb_build_array(CASE WHEN id = $1 THEN $4::jsonb ELSE $5::jsonb END)
                        || COALESCE(edit_history, '[]'::jsonb),
         content = CASE WHEN id = $1 AND $6::text IS NOT NULL THEN $6::text ELSE content END,
         rendered_content = CASE WHEN id = $1 AND $7::text IS NOT NULL THEN $7::text ELSE rendered_content END,
         is_me_message = CASE WHEN id = $1 AND $8::boolean IS NOT NULL THEN $8::boolean ELSE is_me_message END,
         has_image = CASE WHEN id = $1 AND $9::boolean IS NOT NULL THEN $9::boolean ELSE has_image END,
         has_link = CASE WHEN id = $1 AND $10::boolean IS NOT NULL THEN $10::boolean ELSE has_link END,
         recipient_id = COALESCE($11::int, recipient_id),
         channel_id = COALESCE($12::int, channel_id),
         topic = COALESCE($13::text, topic),
         topic_key = COALESCE($14::text, topic_key)
       WHERE id = ANY($2::int[])`,
      [
        write.targetId,
        write.messageIds,
        write.editTime,
        JSON.stringify(write.targetEntry),
        JSON.stringify(write.othersEntry),
        content?.content ?? null,
        content?.renderedContent ?? null,
        content?.isMeMessage ?? null,
        content?.hasImage ?? null,
        content?.hasLink ?? null,
        move?.recipientId ?? null,
        move?.channelId ?? null,
        move?.topic ?? null,
        move?.topicKey ?? null,
      ],
    );
  }
}
