import { noteCausalEvents } from '@confab/identity';
import { writeOutbox, writeOutboxSql, type RawExecutor, type SqlQuerier } from './dedupe.js';
import type { OutboxRecord } from './envelope.js';

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
      noteCausalEvents(committed.map((record) => ({ type: record.routingKey, id: record.eventId })));
    }
    return result;
  }
}
