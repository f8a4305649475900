import type { ReactionStore, ReactionUnit } from '../domain/message-store.js';
import type { Reaction, ReactionType } from '../domain/types.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

/** Emoji reactions on messages. */
export class ReactionsRepository implements ReactionStore {
  constructor(private readonly store: Store) {}

  /** This part of a unit of work (a PlainStore part, repositories/messaging-database.ts), joined to `executor`. */
  on(executor: SqlExecutor): ReactionUnit {
    return {
      add: (reaction) => this.add(executor, reaction),
      remove: (key) => this.remove(executor, key),
      deleteForMessages: (messageIds) => this.deleteForMessages(executor, messageIds),
    };
  }

  /** Reactions of each message, oldest first. */
  async forMessages(messageIds: readonly number[]): Promise<Map<number, Reaction[]>> {
    const out = new Map<number, Reaction[]>();
    if (messageIds.length === 0) return out;
    // The plain pool: every message fetch asks for these, and Prisma's row decoding is the costly part.
    const rows = await this.store.sql.query<{
      messageId: number;
      userId: number;
      emojiName: string;
      emojiCode: string;
      reactionType: string;
    }>(
      `SELECT message_id AS "messageId", user_id AS "userId", emoji_name AS "emojiName", emoji_code AS "emojiCode",
        reaction_type AS "reactionType" FROM reactions WHERE message_id = ANY($1::int[]) ORDER BY id`,
      [[...messageIds]],
    );
    for (const row of rows) {
      const list = out.get(row.messageId) ?? [];
      list.push({
        messageId: row.messageId,
        userId: row.userId,
        emojiName: row.emojiName,
        emojiCode: row.emojiCode,
        reactionType: row.reactionType as ReactionType,
      });
      out.set(row.messageId, list);
    }
    return out;
  }

  /** Adds a reaction; false when the same user already reacted with the same emoji. */
  async add(executor: SqlExecutor, reaction: Reaction): Promise<boolean> {
    const rows = await executor.query<{ id: number }>(
      `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (message_id, user_id, reaction_type, emoji_code) DO NOTHING RETURNING id`,
      [reaction.messageId, reaction.userId, reaction.emojiName, reaction.emojiCode, reaction.reactionType],
    );
    return rows.length === 1;
  }

  /** Removes the user's reaction with this emoji; returns it (with its stored name) or null. */
  async remove(
    executor: SqlExecutor,
    key: { messageId: number; userId: number; emojiCode: string; reactionType: ReactionType },
  ): Promise<Reaction | null> {
    const rows = await executor.query<{ emoji_name: string }>(
      `DELETE FROM reactions WHERE message_id = $1 AND user_id = $2 AND emoji_code = $3 AND reaction_type = $4 RETURNING emoji_name`,
      [key.messageId, key.userId, key.emojiCode, key.reactionType],
    );
    return rows[0] ? { ...key, emojiName: rows[0].emoji_name } : null;
  }

  /** An existing reaction on the message with this emoji name (voting on it reuses its code and type). */
  async byName(messageId: number, emojiName: string): Promise<Reaction | null> {
    const row = await this.store.db.reaction.findFirst({ where: { messageId, emojiName }, orderBy: { id: 'asc' } });
    return row
      ? {
          messageId,
          userId: row.userId,
          emojiName: row.emojiName,
          emojiCode: row.emojiCode,
          reactionType: row.reactionType as ReactionType,
        }
      : null;
  }

  async deleteForMessages(executor: SqlExecutor, messageIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0) return;
    await executor.query('DELETE FROM reactions WHERE message_id = ANY($1::int[])', [[...messageIds]]);
  }
}
