import { deliverDueBatch, DELIVERY_BATCH } from './scheduled-batch.js';
import { deliverScheduled, type DeliveryOutcome } from './scheduled-send.js';
import type { Domain } from './context.js';

/** Batches one drain runs side by side: the worker's rendering overlaps the database's writing of another batch. */
export const PARALLEL_BATCHES = 2;
/** Rows left by the batches, read a page at a time. */
const LEFTOVER_PAGE = 200;

/**
 * Delivers one scheduled message on its own, trying again while an edit that committed meanwhile supersedes it.
 */
export async function deliverOne(domain: Domain, id: number, now?: Date): Promise<DeliveryOutcome> {
  let result: DeliveryOutcome = { outcome: 'superseded' };
  for (let attempt = 0; attempt < 3 && result.outcome === 'superseded'; attempt += 1)
    result = await deliverScheduled(domain, id, now);
  return result;
}

/**
 * Delivers every scheduled message due by `now` (docs/architecture.md, "Hot paths and batching"): in batches while
 * they come back full, `PARALLEL_BATCHES` at a time, then each row the batches left (refused at delivery time, too
 * late, with uploads to claim, or held by another delivery) once on its own, which sends it or records why not.
 * Returns the due times of the messages delivered. Concurrent drains (other jobs, other workers) are safe: batches
 * skip the rows another holds, and the guarded update sends a row at most once.
 */
export async function deliverAllDue(domain: Domain, now = new Date()): Promise<Date[]> {
  const delivered: Date[] = [];
  const batches = async () => {
    for (;;) {
      const due = await deliverDueBatch(domain, now);
      delivered.push(...due);
      if (due.length < DELIVERY_BATCH) return;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, batches));
  for (let after = 0; ;) {
    const left = await domain.scheduledMessages.pending(after, LEFTOVER_PAGE, now);
    for (const { id } of left) {
      const result = await deliverOne(domain, id, now);
      if (result.outcome === 'delivered') delivered.push(result.dueAt);
    }
    if (left.length < LEFTOVER_PAGE) return delivered;
    after = left[left.length - 1]!.id;
  }
}
