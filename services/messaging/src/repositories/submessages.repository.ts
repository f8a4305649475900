import type { Submessage, SubmessageStore, SubmessageUnit } from '../domain/message-store.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

/** Submessages on the plain pool: one indexed read per page of messages that have any, a part of each add's unit of work. */
export class SubmessagesRepository implements SubmessageStore {
  constructor(private readonly store: Store) {}

  private get sql(): SqlExecutor {
    return this.store.sql;
  }

  async forMessages(messageIds: readonly number[]): Promise<Map<number, Submessage[]>> {
    const out = new Map<number, Submessage[]>();
    if (messageIds.length === 0) return out;
    const rows = await this.sql.query<Submessage>(
      `SELECT id, message_id, sender_id, msg_type, content FROM submessages
        WHERE message_id = ANY($1::int[]) ORDER BY id`,
      [messageIds],
    );
    for (const row of rows) out.set(row.message_id, [...(out.get(row.message_id) ?? []), row]);
    return out;
  }

  /** This part of a unit of work (a PlainStore part, repositories/messaging-database.ts), joined to `db`. */
  on(db: SqlExecutor): SubmessageUnit {
    return {
      async insert(s) {
        const [row] = await db.query<{ id: number }>(
          `WITH mark AS (UPDATE messages SET has_submessages = true WHERE id = $1)
           INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, $3, $4) RETURNING id`,
          [s.message_id, s.sender_id, s.msg_type, s.content],
        );
        return row!.id;
      },
      async receivers(messageId) {
        const rows = await db.query<{ user_id: number }>(
          'SELECT user_id FROM user_messages WHERE message_id = $1 ORDER BY user_id',
          [messageId],
        );
        return rows.map((r) => r.user_id);
      },
    };
  }
}
