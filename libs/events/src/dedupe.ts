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
