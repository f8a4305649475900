import { noteCausalEvents, type CausalEvent } from '@confab/identity';
import { writeOutbox, writeOutboxSql, type RawExecutor, type SqlQuerier } from './dedupe.js';
import type { OutboxRecord } from './envelope.js';

/**
 * Limits of a Prisma interactive transaction behind a unit of work: Prisma's defaults (5 s to run, 2 s to get a
 * connection) turn a busy moment into a 500 — creating an organization writes dozens of rows in one transaction,
 * and on a loaded two-core machine that took 8–11 s. A transaction still ends (and rolls back) if it hangs.
 */
/** The user an event is about (`user` or `user_id` of its payload), kept with it in the causal log. */
function causalEventOf(record: OutboxRecord): CausalEvent {
  const payload = record.envelope.payload as { user?: { user_id?: unknown }; user_id?: unknown } | null;
  const subject = payload?.user?.user_id ?? payload?.user_id;
  return { type: record.routingKey, id: record.eventId, ...(typeof subject === 'number' ? { subject } : {}) };
}

export const PRISMA_TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** What a unit of work's body returns: its result, and the events to publish if (and only if) it commits. */
export interface Written<T> {
  result: T;
  events: OutboxRecord[];
}

export interface UnitOfWorkOptions<Tx> {
  /** Opens a transaction around `body` (e.g. a Prisma interactive transaction, or BEGIN/COMMIT on a pg client). */
  transaction<R>(body: (tx: Tx) => Promise<R>): Promise<R>;
  /** Writes the outbox rows inside that transaction (`writeOutbox` for Prisma, `outboxInsert` for pg). */
  writeOutbox(tx: Tx, records: readonly OutboxRecord[]): Promise<void>;
  /** Wakes the outbox relay after a commit that wrote rows. */
  afterCommit?: () => void;
}

/**
 * One unit of work (docs/architecture.md): the change and its outbox rows commit together; after the commit the relay
 * is woken and the events are noted for the request that caused them (read-your-writes).
 */
export class UnitOfWork<Tx> {
  constructor(private readonly options: UnitOfWorkOptions<Tx>) {}

  /** Over Prisma interactive transactions (`body => db.$transaction(body, options)`). */
  static prisma<Tx extends RawExecutor>(
    transaction: UnitOfWorkOptions<Tx>['transaction'],
    afterCommit?: () => void,
  ): UnitOfWork<Tx> {
    return new UnitOfWork<Tx>({ transaction, writeOutbox, afterCommit });
  }

  /** Over transactions of a plain pg pool, whose clients run `query(text, values)`. */
  static sql<Tx extends SqlQuerier>(
    transaction: UnitOfWorkOptions<Tx>['transaction'],
    afterCommit?: () => void,
  ): UnitOfWork<Tx> {
    return new UnitOfWork<Tx>({ transaction, writeOutbox: writeOutboxSql, afterCommit });
  }

  async run<T>(fn: (tx: Tx) => Promise<Written<T>>): Promise<T> {
    let committed: readonly OutboxRecord[] = [];
    const result = await this.options.transaction(async (tx) => {
      const { result: value, events } = await fn(tx);
      if (events.length > 0) await this.options.writeOutbox(tx, events);
      committed = events;
      return value;
    });
    if (committed.length > 0) {
      this.options.afterCommit?.();
      noteCausalEvents(committed.map(causalEventOf));
    }
    return result;
  }
}
