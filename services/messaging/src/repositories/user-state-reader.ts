import { FLAG } from '@confab/zulip';
import type { Store } from './store.js';

/**
 * What a client's register response reads of a user's messages (domain/initial-state.ts): topic policies, the
 * highest message id, flagged ids, unread messages and recent direct conversations.
 */
export class UserStateReader {
  constructor(private readonly store: Store) {}

  /** The user's topic policies, as Zulip's register response lists them. */
  async userTopicsOf(userId: number) {
    const rows = await this.store.db.userTopic.findMany({ where: { userId }, orderBy: { id: 'asc' } });
    return rows.map((r) => ({
      stream_id: r.channelId,
      topic_name: r.topicName,
      last_updated: Math.floor(r.lastUpdated.getTime() / 1000),
      visibility_policy: r.visibilityPolicy,
    }));
  }

  /** The highest message id the user received, -1 when none. */
  async maxMessageId(userId: number): Promise<number> {
    const rows = await this.store.sql.query<{ max: number | null }>(
      'SELECT max(message_id) AS max FROM user_messages WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.max ?? -1;
  }

  /** Ids of the user's messages with this flag bit set. */
  async flaggedIds(userId: number, bit: number): Promise<number[]> {
    if (!Number.isInteger(bit) || bit <= 0) throw new Error(`not a flag bit: ${bit}`);
    // The bit written into the text, not passed as a parameter: only then can PostgreSQL use the flag's partial index
    // (the starred one: migration 20271204000000_user_message_flag_indexes).
    const rows = await this.store.sql.query<{ message_id: number }>(
      `SELECT message_id FROM user_messages WHERE user_id = $1 AND (flags & ${bit}) <> 0 ORDER BY message_id`,
      [userId],
    );
    return rows.map((r) => r.message_id);
  }

  /** The user's unread messages, newest first, with what grouping them needs. */
  async unreadRows(userId: number, limit: number) {
    const rows = await this.store.sql.query<{
      message_id: number;
      flags: number;
      channel_id: number | null;
      topic: string;
      dm_key: string | null;
    }>(
      `SELECT um.message_id, um.flags, m.channel_id, m.topic, r.dm_key
         FROM user_messages um JOIN messages m ON m.id = um.message_id JOIN recipients r ON r.id = m.recipient_id
        WHERE um.user_id = $1 AND (um.flags & ${FLAG.read}) = 0
        ORDER BY um.message_id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({
      messageId: r.message_id,
      flags: r.flags,
      channelId: r.channel_id,
      topic: r.topic,
      dmUserIds: r.dm_key ? r.dm_key.split(',').map(Number) : null,
    }));
  }

  /** The user's direct conversations, most recent first. */
  async recentDirectConversations(
    userId: number,
    limit: number,
  ): Promise<{ maxMessageId: number; userIds: number[] }[]> {
    const rows = await this.store.sql.query<{ dm_key: string; max_id: number }>(
      `SELECT r.dm_key, max(um.message_id) AS max_id
         FROM user_messages um JOIN messages m ON m.id = um.message_id JOIN recipients r ON r.id = m.recipient_id
        WHERE um.user_id = $1 AND (um.flags & ${FLAG.is_private}) <> 0
        GROUP BY r.dm_key ORDER BY max_id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({ maxMessageId: r.max_id, userIds: r.dm_key.split(',').map(Number) }));
  }
}
