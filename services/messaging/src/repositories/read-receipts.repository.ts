import type { ReadReceiptSource } from '../domain/message-store.js';
import type { SqlPool } from './sql.js';

/** One indexed read of the message's rows (user_messages by message_id), joined with the people it names. */
export class ReadReceiptsRepository implements ReadReceiptSource {
  constructor(private readonly sql: SqlPool) {}

  async readers(messageId: number, senderId: number, viewerId: number): Promise<number[]> {
    const rows = await this.sql.query<{ user_id: number }>(
      `SELECT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id
        WHERE um.message_id = $1 AND um.flags & 1 = 1 AND um.user_id <> $2 AND u.is_active AND u.send_read_receipts
          AND NOT EXISTS (SELECT 1 FROM muted_users mu WHERE mu.user_id = um.user_id AND mu.muted_user_id = $3)
          AND NOT EXISTS (SELECT 1 FROM muted_users mu WHERE mu.user_id = $3 AND mu.muted_user_id = um.user_id)
        ORDER BY um.user_id`,
      [messageId, senderId, viewerId],
    );
    return rows.map((r) => r.user_id);
  }
}
