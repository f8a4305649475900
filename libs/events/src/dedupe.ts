import type { OutboxRecord } from './envelope.js';

/** Anything that runs raw SQL with positional parameters: a Prisma client or transaction, structurally. */
export interface RawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/**
 * Records that `consumer` handled `eventId`; false when it already had. Call it first inside the transaction
 * that applies the event, so a redelivered event changes nothing (at-least-once in, exactly-once effect).
 * Needs the `processed_events` table every service's schema declares.
 */
export async function claimEvent(tx: RawExecutor, consumer: string, eventId: string): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING',
    consumer,
    eventId,
  );
  return inserted === 1;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RawQuerier {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Whether any consumer of this service has handled the event (GET /internal/events/processed/{event_id}, which
 * tests and the development seed use to wait for propagation).
 */
export async function isEventProcessed(db: RawQuerier, eventId: string): Promise<boolean> {
  if (!UUID.test(eventId)) return false;
  const rows = await db.$queryRawUnsafe<unknown[]>(
    'SELECT 1 FROM processed_events WHERE event_id = $1::uuid LIMIT 1',
    eventId,
  );
  return rows.length > 0;
}

/** Which consumers of this service have recorded handling these events (for read-your-writes across replicas). */
export async function processedEvents(
  db: RawQuerier,
  eventIds: readonly string[],
): Promise<{ consumer: string; eventId: string }[]> {
  const ids = eventIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return [];
  const rows = await db.$queryRawUnsafe<{ consumer: string; event_id: string }[]>(
    'SELECT consumer, event_id::text AS event_id FROM processed_events WHERE event_id = ANY($1::uuid[])',
    ids,
  );
  return rows.map((row) => ({ consumer: row.consumer, eventId: row.event_id }));
}

/** The one INSERT of a transaction's outbox rows, for services that run it through their own SQL client. */
/** The head of an INSERT of outbox rows, for a statement that writes them from a query (an envelope completed in SQL). */
export const OUTBOX_INSERT = 'INSERT INTO outbox (event_id, routing_key, envelope)';

export function outboxInsert(records: readonly OutboxRecord[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const rows = records.map((record, i) => {
    values.push(record.eventId, record.routingKey, JSON.stringify(record.envelope));
    return `($${i * 3 + 1}::uuid, $${i * 3 + 2}, $${i * 3 + 3}::jsonb)`;
  });
  return { text: `${OUTBOX_INSERT} VALUES ${rows.join(', ')}`, values };
}

/**
 * Writes a transaction's events to the service's `outbox` table in one INSERT (same columns in every service), so
 * they commit or roll back with the change that caused them.
 */
/** What runs SQL on a plain pg client or pool. */
export interface SqlQuerier {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** Writes the records' outbox rows through a plain pg client (inside its transaction) or pool. */
export async function writeOutboxSql(executor: SqlQuerier, records: readonly OutboxRecord[]): Promise<void> {
  if (records.length === 0) return;
  const { text, values } = outboxInsert(records);
  await executor.query(text, values);
}

export async function writeOutbox(tx: RawExecutor, records: readonly OutboxRecord[]): Promise<void> {
  if (records.length === 0) return;
  const { text, values } = outboxInsert(records);
  await tx.$executeRawUnsafe(text, ...values);
}
