import {
  claimEvent,
  PRISMA_TRANSACTION_OPTIONS,
  UnitOfWork,
  writeOutboxSql,
  type OutboxRecord,
  type Written,
} from '@confab/events';
import { pingDatabase } from '@confab/runtime';
import type { UnitOfWorkPort } from '../domain/storage.js';
import type { Db, Tx } from './prisma.js';
import { inTransaction, type SqlExecutor, type SqlPool } from './sql.js';

/** How long one consumer's transaction may take (and wait for a connection). */
const CONSUMER_TRANSACTION_MS = 60_000;

/** What `publish` needs of the event bus: publishing with the broker's confirms. */
export interface DirectPublisher {
  isConnected(): boolean;
  publish(records: readonly OutboxRecord[], options?: { persistent?: boolean }): Promise<void>;
}

/**
 * The database and the one way to change it (the domain's UnitOfWorkPort): `@confab/events`' unit of work, over a
 * Prisma transaction or a plain-SQL one, writes the outbox rows with the change and wakes the relay after the commit.
 * Every repository shares one Store.
 */
export class Store implements UnitOfWorkPort {
  private readonly prismaUnit: UnitOfWork<Tx>;
  private readonly sqlUnit: UnitOfWork<SqlExecutor>;
  private readonly batchUnit: UnitOfWork<SqlExecutor>;
  private readonly consumerUnit: UnitOfWork<Tx>;
  private broker: DirectPublisher | undefined;

  constructor(
    readonly db: Db,
    /** Plain SQL for the hot paths on the same pool (a single statement is its own transaction). */
    readonly sql: SqlPool,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    private readonly afterCommit: () => void = () => undefined,
  ) {
    // Bulk subscription changes can take a while; Prisma's default 5 s would cut them off.
    this.prismaUnit = UnitOfWork.prisma<Tx>((body) => db.$transaction(body, PRISMA_TRANSACTION_OPTIONS), afterCommit);
    this.sqlUnit = UnitOfWork.sql<SqlExecutor>((body) => sql.transaction(body), afterCommit);
    this.batchUnit = UnitOfWork.sql<SqlExecutor>((body) => sql.planOnce.transaction(body), afterCommit);
    // Longer than a request's: the largest read-model events (a new organization's groups, thousands of members)
    // outlast 30 s on a loaded machine, and a timed-out transaction fails the event on every retry.
    const consumerLimits = { timeout: CONSUMER_TRANSACTION_MS, maxWait: CONSUMER_TRANSACTION_MS };
    this.consumerUnit = UnitOfWork.prisma<Tx>((body) => db.$transaction(body, consumerLimits), afterCommit);
  }

  /** Wakes the outbox relay after a single statement wrote outbox rows. */
  committed(): void {
    this.afterCommit();
  }

  transaction<T>(fn: (tx: Tx) => Promise<Written<T>>): Promise<T> {
    return this.prismaUnit.run(fn);
  }

  /**
   * The same contract as `transaction`, on the plain pool: for hot paths whose statements are all plain SQL (a
   * Prisma interactive transaction costs several round trips and its query engine's CPU).
   */
  sqlTransaction<T>(fn: (executor: SqlExecutor) => Promise<Written<T>>): Promise<T> {
    return this.sqlUnit.run(fn);
  }

  batchTransaction<T>(fn: (executor: SqlExecutor) => Promise<Written<T>>): Promise<T> {
    return this.batchUnit.run(fn);
  }

  /**
   * A consumer's change: applies event `eventId` for `consumer` at most once (the claim commits with the change), with
   * the events `fn` returns; nothing when the event had been applied already.
   */
  applyOnce(claim: { consumer: string; eventId: string }, fn: (tx: Tx) => Promise<OutboxRecord[]>): Promise<void> {
    return this.consumerUnit.run(async (tx) => {
      if (!(await claimEvent(tx, claim.consumer, claim.eventId))) return { result: undefined, events: [] };
      return { result: undefined, events: await fn(tx) };
    });
  }

  sqlOf(tx: Tx): SqlExecutor {
    return inTransaction(tx);
  }

  /** For repositories' reads: plain SQL inside the Prisma transaction `tx`, or on the plain pool without one. */
  reader(tx: Tx | undefined): SqlExecutor {
    return tx ? inTransaction(tx) : this.sql;
  }

  /**
   * Events that go with no change of our own (typing): there is no change for them to commit with, so they go
   * straight to the broker (with its confirms) when one is connected — an outbox row, the relay's locked read and
   * its delete cost PostgreSQL more than the whole rest of a typing notification. Without a broker connection they
   * take the outbox (one INSERT on the plain pool, then the relay is woken), so they still arrive once it is back.
   */
  async publish(events: readonly OutboxRecord[]): Promise<void> {
    if (events.length === 0) return;
    if (this.broker?.isConnected()) {
      try {
        // Not written to the broker's disk: a typing notification is worthless after a broker restart.
        await this.broker.publish(events, { persistent: false });
        return;
      } catch {
        // The channel closed under us: the outbox carries them instead (consumers de-duplicate by event id).
      }
    }
    await writeOutboxSql(this.sql, events);
    this.afterCommit();
  }

  /** The broker `publish` sends events of no change to directly (the API process's bus; the worker has none). */
  useBroker(broker: DirectPublisher): void {
    this.broker = broker;
  }

  ping(): Promise<boolean> {
    return pingDatabase(this.db);
  }
}
