import { batchable, sendBatchStatement, sendStatement, type SendWrite } from './send-sql.js';
import type { SqlExecutor } from './sql.js';
import type { SentRows } from '../domain/message-store.js';

export type { SentRows } from '../domain/message-store.js';

interface ResultRow {
  id: number;
  user_ids: number[];
  flags: number[];
  sender_policy: number | null;
}

interface Waiting {
  write: SendWrite;
  resolve: (rows: SentRows) => void;
  reject: (err: unknown) => void;
}

const toSent = (row: ResultRow): SentRows => ({
  messageId: row.id,
  userIds: row.user_ids,
  flags: row.flags,
  senderPolicy: row.sender_policy,
});

/**
 * Group commit for sends (docs/architecture.md, "Hot paths and batching"): a send that finds fewer than `lanes`
 * statements in flight is written at once, alone, so a lone send waits for nothing; sends that arrive while the
 * lanes are busy wait for the next free lane and are written together, up to `maxBatch` in one statement (one round
 * trip, one commit). Each send keeps its own id and result; when a shared statement fails, its sends are written
 * one by one, so an error belongs to the send that caused it and to no other.
 */
export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private busy = 0;
  /** Statements written, and the most sends one of them carried. */
  readonly stats = { statements: 0, largestBatch: 0 };

  /**
   * `batchSql` runs the shared statements: connections that plan a statement once (SqlPool's `planOnce`), as a
   * batch statement's text differs with the number of sends, and planning one afresh cost more than running it.
   */
  constructor(
    private readonly sql: SqlExecutor,
    private readonly options: { lanes: number; maxBatch: number },
    private readonly batchSql: SqlExecutor = sql,
  ) {}

  /** Writes one send (a statement of its own when it may not share one, see `batchable`). */
  send(write: SendWrite): Promise<SentRows> {
    if (!batchable(write)) return this.alone(write);
    return new Promise<SentRows>((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.busy < this.options.lanes && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.busy += 1;
      void this.flush(batch).finally(() => {
        this.busy -= 1;
        this.pump();
      });
    }
  }

  private async flush(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Waiting];
      await this.alone(only.write).then(only.resolve, only.reject);
      return;
    }
    let rows: ResultRow[];
    try {
      const { text, values } = sendBatchStatement(batch.map((w) => w.write));
      this.stats.statements += 1;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
      rows = await this.batchSql.query<ResultRow>(text, values);
    } catch {
      // One of them (or the batch) failed: each send on its own, so only a bad one fails.
      await Promise.all(batch.map((w) => this.alone(w.write).then(w.resolve, w.reject)));
      return;
    }
    batch.forEach((w, i) => w.resolve(toSent(rows[i]!)));
  }

  /**
   * Several sends inside the caller's transaction: one statement when they may share it, else (or when the shared
   * statement fails, rolled back to a savepoint) one statement each, in order.
   */
  async inTransaction(writes: readonly SendWrite[], executor: SqlExecutor): Promise<SentRows[]> {
    if (writes.length > 1 && writes.every(batchable)) {
      await executor.query('SAVEPOINT group_commit', [], { prepare: false });
      // A batch statement has a dozen CTEs per send: planning one of 50 sends costs more than running it (17 ms, seen
      // in pg_stat_statements), and each pool connection would plan it afresh five times before PostgreSQL settles on
      // the generic plan. Its plan does not depend on the values, so it is planned once per connection.
      await executor.query('SET LOCAL plan_cache_mode = force_generic_plan', [], { prepare: false });
      try {
        const { text, values } = sendBatchStatement(writes);
        this.stats.statements += 1;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, writes.length);
        const rows = await executor.query<ResultRow>(text, values);
        await executor.query('RELEASE SAVEPOINT group_commit', [], { prepare: false });
        return rows.map(toSent);
      } catch {
        await executor.query('ROLLBACK TO SAVEPOINT group_commit', [], { prepare: false });
      }
    }
    const sent: SentRows[] = [];
    for (const write of writes) sent.push(await this.alone(write, executor));
    return sent;
  }

  /** One send as one statement; `executor` joins a transaction. */
  async alone(write: SendWrite, executor: SqlExecutor = this.sql): Promise<SentRows> {
    const { text, values } = sendStatement(write);
    this.stats.statements += 1;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, 1);
    // Messages that change several users' topic policies have texts of their own; those are not kept prepared.
    const [row] = await executor.query<ResultRow>(text, values, { prepare: write.policies.length <= 1 });
    return toSent(row!);
  }
}
