import type { contracts } from '@confab/events';
import type { MessageEdit } from '../domain/message-notifications.js';
import type { Candidate } from '../domain/notification-rules.js';
import type { Tx } from './prisma.js';

/** The messages notifications are built from (notified_messages), and the rows an edit's candidates add. */

/** Keeps the message as message.sent carried it, for the notifications (push or email) built from it later. */
export async function keepMessage(tx: Tx, message: contracts.MessageRecord, realmId: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO notified_messages (message_id, realm_id, message) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (message_id) DO NOTHING`,
    message.id,
    realmId,
    JSON.stringify(message),
  );
}

/**
 * Keeps the message as an edit left it: `insert` when the edit notifies someone, else only where it is kept
 * already; never over a later edit (the push and email consumers each apply every edit, in their own order).
 */
async function keepEdited(tx: Tx, edit: MessageEdit, insert: boolean): Promise<void> {
  const { message, realmId, editedAt } = edit;
  const args = [message.id, realmId, JSON.stringify(message), editedAt] as const;
  if (insert) {
    await tx.$executeRawUnsafe(
      `INSERT INTO notified_messages (message_id, realm_id, message, edited_at) VALUES ($1, $2, $3::jsonb, $4::timestamptz)
       ON CONFLICT (message_id) DO UPDATE SET message = EXCLUDED.message, edited_at = EXCLUDED.edited_at
       WHERE notified_messages.edited_at IS NULL OR notified_messages.edited_at <= EXCLUDED.edited_at`,
      ...args,
    );
    return;
  }
  await tx.$executeRawUnsafe(
    `UPDATE notified_messages SET message = $3::jsonb, edited_at = $4::timestamptz
     WHERE message_id = $1 AND realm_id = $2 AND (edited_at IS NULL OR edited_at <= $4::timestamptz)`,
    ...args,
  );
}

/**
 * Records an edit's candidates in `table` (message_notifications or email_notifications): new rows, and rows of
 * receivers left unnotified because they were present, opened again; every other row (a notification pending, sent,
 * read or failed) stays as it is. `extra` are further columns with their values (text arrays). Returns whether any
 * row is pending now.
 */
export async function recordEditIn(
  tx: Tx,
  table: 'message_notifications' | 'email_notifications',
  edit: MessageEdit,
  candidates: readonly Candidate[],
  extra: { column: string; type: string; values: unknown[] } | null,
): Promise<boolean> {
  await keepEdited(tx, edit, candidates.length > 0);
  if (candidates.length === 0) return false;
  const columns = extra ? `, ${extra.column}` : '';
  const more = extra ? `, $5::${extra.type}[]` : '';
  const set = extra ? `, ${extra.column} = EXCLUDED.${extra.column}` : '';
  const rows = await tx.$queryRawUnsafe<{ user_id: number }[]>(
    `INSERT INTO ${table} AS n (message_id, user_id, realm_id, trigger${columns})
     SELECT $1, x.* FROM unnest($3::int[], $2::int[], $4::text[]${more}) AS x
     ON CONFLICT (message_id, user_id) DO UPDATE SET status = 'pending', trigger = EXCLUDED.trigger${set},
       updated_at = now()
     WHERE n.status = 'present'
     RETURNING n.user_id`,
    edit.message.id,
    candidates.map(() => edit.realmId),
    candidates.map((c) => c.userId),
    candidates.map((c) => c.trigger),
    ...(extra ? [extra.values] : []),
  );
  return rows.length > 0;
}
