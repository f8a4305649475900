import { RepeatedSend } from '../domain/message-store.js';
import { isUniqueViolation } from './prisma.js';
import type { SendWrite } from './send-sql.js';
import type { SqlExecutor } from './sql.js';

/**
 * The client ids of sends (`sent_local_ids`, services/messaging/README.md "Sending"): the send statement inserts
 * them beside the message, so a repeat fails on the table's primary key; here that failure becomes `RepeatedSend`,
 * and the first message's id is read back.
 */
export function repeatedSendsRefused<T>(write: SendWrite, sent: Promise<T>): Promise<T> {
  const ids = write.clientIds;
  if (!ids) return sent;
  return sent.catch((err: unknown) => {
    if (isUniqueViolation(err) && mentionsSentLocalIds(err))
      throw new RepeatedSend({ senderId: write.message.senderId, ...ids });
    throw err;
  });
}

export async function sentWith(
  sql: SqlExecutor,
  ids: { senderId: number; queueId: string; localId: string },
): Promise<number | null> {
  const [row] = await sql.query<{ message_id: number }>(
    'SELECT message_id FROM sent_local_ids WHERE sender_id = $1 AND queue_id = $2 AND local_id = $3',
    [ids.senderId, ids.queueId, ids.localId],
  );
  return row?.message_id ?? null;
}

export async function forgetSentLocalIds(sql: SqlExecutor, before: Date): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    'WITH d AS (DELETE FROM sent_local_ids WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d',
    [before],
  );
  return rows[0]?.n ?? 0;
}

/** Whether a unique violation is of the client ids' key (pg's `constraint`, or the name in a wrapped error's text). */
function mentionsSentLocalIds(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { constraint, message, meta } = e as { constraint?: unknown; message?: unknown; meta?: unknown };
    if (constraint === 'sent_local_ids_pkey') return true;
    if (typeof message === 'string' && message.includes('sent_local_ids_pkey')) return true;
    if (meta && JSON.stringify(meta).includes('sent_local_ids')) return true;
  }
  return false;
}
