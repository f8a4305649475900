import { writeOutbox, writeOutboxSql, type OutboxRecord } from '@confab/events';
import type { Db, Tx } from './prisma.js';
import type { SqlExecutor, SqlPool } from './sql.js';

/**
 * The database and the one way to change it: a transaction whose outbox records are written with it, after which
 * the outbox relay is woken. Every repository shares one Store.
 */
export class Store {
  constructor(
    readonly db: Db,
    /** Plain SQL for the hot paths (a single statement is its own transaction). */
    readonly sql: SqlPool,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    private readonly afterCommit: () => void = () => undefined,
  ) {}

  /** Wakes the outbox relay after a single statement wrote outbox rows. */
  committed(): void {
    this.afterCommit();
  }

  async transaction<T>(fn: (tx: Tx) => Promise<{ result: T; events: OutboxRecord[] }>): Promise<T> {
    return this.withOutbox(
      // Bulk subscription changes can take a while; the default 5 s would cut them off.
      (body) => this.db.$transaction(body, { timeout: 30_000, maxWait: 10_000 }),
      writeOutbox,
      fn,
    );
  }

  /**
   * The same contract as `transaction`, on the plain pool: for hot paths whose statements are all plain SQL (a
   * Prisma interactive transaction costs several round trips and its query engine's CPU).
   */
  async sqlTransaction<T>(fn: (executor: SqlExecutor) => Promise<{ result: T; events: OutboxRecord[] }>): Promise<T> {
    return this.withOutbox((body) => this.sql.transaction(body), writeOutboxSql, fn);
  }

  /** Runs `fn` in a transaction of `run`, writes its events in the same transaction, and wakes the relay after it. */
  private async withOutbox<X, T>(
    run: (body: (executor: X) => Promise<T>) => Promise<T>,
    write: (executor: X, events: readonly OutboxRecord[]) => Promise<void>,
    fn: (executor: X) => Promise<{ result: T; events: OutboxRecord[] }>,
  ): Promise<T> {
    let wroteEvents = false;
    const result = await run(async (executor) => {
      const { result: value, events } = await fn(executor);
      if (events.length > 0) {
        await write(executor, events);
        wroteEvents = true;
      }
      return value;
    });
    if (wroteEvents) this.afterCommit();
    return result;
  }

  /** Events that go with no change of our own (typing): one INSERT on the plain pool, then the relay is woken. */
  async publish(events: readonly OutboxRecord[]): Promise<void> {
    if (events.length === 0) return;
    await writeOutboxSql(this.sql, events);
    this.afterCommit();
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.$queryRawUnsafe('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
