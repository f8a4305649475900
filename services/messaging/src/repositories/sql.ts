import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlExecutor } from '../domain/storage.js';
import type { Tx } from './prisma.js';

export type { SqlExecutor } from '../domain/storage.js';

// int8 (count(*), bigserial) as numbers: every such value here fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (names.size > 10_000) names.clear();
    names.set(text, name);
  }
  return name;
}

/** Runs statements on one connection, named (prepared once per connection) unless `named` is false. */
function executorOn(client: pg.PoolClient, named: boolean): SqlExecutor {
  return {
    query: async <R>(text: string, values: readonly unknown[], options: { prepare?: boolean } = {}) => {
      const name = named && options.prepare !== false ? statementName(text) : undefined;
      const result = await client.query({ name, text, values: values as unknown[] });
      return result.rows as R[];
    },
  };
}

/** Statements on `client` in one transaction (committed when `fn` resolves, rolled back when it throws). */
async function inTransactionOn<T>(
  client: pg.PoolClient,
  named: boolean,
  fn: (executor: SqlExecutor) => Promise<T>,
): Promise<{ value: T } | { error: unknown; broken: boolean }> {
  try {
    await client.query('BEGIN');
    const value = await fn(executorOn(client, named));
    await client.query('COMMIT');
    return { value };
  } catch (error) {
    let broken = false;
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    return { error, broken };
  }
}

/**
 * The process's one PostgreSQL pool (docs/architecture.md, "PostgreSQL connections"): Prisma's adapter runs on it
 * (`openDatabase` in database.ts), and so does this plain SQL for the hot paths (sending, reading), as Prisma's per-query
 * overhead is about a millisecond of CPU, which a 2,000 sends/s target cannot afford. `planOnce` is the part of it
 * the group commit keeps. Statements here are still this service's own SQL, in repositories.
 */
export class SqlPool implements SqlExecutor {
  readonly pool: pg.Pool;
  /**
   * Whether statements are kept prepared, by name, on their connection: not through a transaction-mode PgBouncer
   * (`pgbouncer=true` in the URL, as Prisma marks it), whose next transaction may run on another server connection
   * where the name is unknown (docs/architecture.md, "PostgreSQL connections").
   */
  private readonly named: boolean;
  /** The connections kept for statements planned once (see `PlanOnceConnections`). */
  readonly planOnce: PlanOnceConnections;

  /** `max` connections in all, `kept` of them (at most) held by `planOnce` once it has used them. */
  constructor(url: string, max: number, { kept = 0 }: { kept?: number } = {}) {
    this.named = new URL(url).searchParams.get('pgbouncer') !== 'true';
    if (kept >= max) throw new Error(`a pool of ${max} connections cannot keep ${kept} for the group commit`);
    this.pool = new pg.Pool({ connectionString: url, max });
    this.pool.on('error', () => undefined);
    // Through PgBouncer no connection is kept: a session setting would leak to other clients' transactions there.
    this.planOnce = new PlanOnceConnections(this, this.named ? kept : 0);
  }

  async query<T>(text: string, values: readonly unknown[], options: { prepare?: boolean } = {}): Promise<T[]> {
    // Named statements are parsed and planned once per connection (the hot statements come in few shapes).
    const name = this.named && options.prepare !== false ? statementName(text) : undefined;
    const result = await this.pool.query({ name, text, values: values as unknown[] });
    return result.rows as T[];
  }

  /** Statements on one connection in one transaction (committed when `fn` resolves, rolled back when it throws). */
  async transaction<T>(fn: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const outcome = await inTransactionOn(client, this.named, fn);
    client.release('error' in outcome && outcome.broken);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** @internal A connection for `planOnce`, set to plan each prepared statement once. */
  async openPlanOnce(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
    } catch (err) {
      client.release(true);
      throw err;
    }
    return client;
  }

  async end(): Promise<void> {
    this.planOnce.end();
    await this.pool.end();
  }
}

/**
 * Up to `size` connections of the pool, taken out on first use and kept, on which PostgreSQL plans each prepared
 * statement once, for any values (plan_cache_mode force_generic_plan for the session), instead of five custom plans
 * first: for statements whose plan does not depend on their values and costs more to make than to run — the group
 * commit's batch statements (a dozen CTEs per send) took 12 ms to plan for a batch of eight sends, more than half of
 * PostgreSQL's CPU per send (bench/RESULTS.md, "Issue 33 ... sendpath"). Kept out of the pool, the setting reaches
 * no other statement. With `size` 0 (through PgBouncer) it runs on the pool itself.
 */
export class PlanOnceConnections implements SqlExecutor {
  private readonly idle: pg.PoolClient[] = [];
  private readonly waiting: { resolve: (c: pg.PoolClient) => void; reject: (e: unknown) => void }[] = [];
  /**
   * Kept connections that failed (PostgreSQL stopped or restarted: 57P01, a reset). Out of the pool, a kept
   * connection has no pool listening for its errors: an error with no listener would end the process, so each has
   * its own, which marks it here and drops it if it is idle; one in use is dropped when it is given back.
   */
  private readonly dead = new WeakSet<pg.PoolClient>();
  private opened = 0;
  private ending = false;

  constructor(
    private readonly sql: SqlPool,
    readonly size: number,
  ) {}

  async query<T>(text: string, values: readonly unknown[], options: { prepare?: boolean } = {}): Promise<T[]> {
    if (this.size === 0) return this.sql.query<T>(text, values, options);
    const client = await this.acquire();
    try {
      const rows = await executorOn(client, true).query<T>(text, values, options);
      this.give(client, false);
      return rows;
    } catch (err) {
      this.give(client, !isStatementError(err));
      throw err;
    }
  }

  async transaction<T>(fn: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.size === 0) return this.sql.transaction(fn);
    const client = await this.acquire();
    const outcome = await inTransactionOn(client, true, fn);
    this.give(client, 'error' in outcome && outcome.broken);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  private async acquire(): Promise<pg.PoolClient> {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.opened < this.size) {
      this.opened += 1;
      try {
        const client = await this.sql.openPlanOnce();
        client.on('error', () => this.failed(client));
        return client;
      } catch (err) {
        this.opened -= 1;
        throw err;
      }
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private failed(client: pg.PoolClient): void {
    if (this.dead.has(client)) return;
    this.dead.add(client);
    const at = this.idle.indexOf(client);
    if (at === -1) return; // in use: dropped when given back
    this.idle.splice(at, 1);
    this.give(client, true);
  }

  private give(client: pg.PoolClient, broken: boolean): void {
    if (broken || this.ending || this.dead.has(client)) {
      // Closed, not returned to the pool: a kept connection's session setting must not reach the pool's others.
      client.release(true);
      this.opened -= 1;
      const next = this.waiting.shift();
      if (next && this.ending) next.reject(new Error('the pool is closing'));
      else if (next) this.acquire().then(next.resolve, next.reject);
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(client);
    else this.idle.push(client);
  }

  /** Gives the kept connections back to the pool (closed), so that the pool can end. */
  end(): void {
    this.ending = true;
    for (const next of this.waiting.splice(0)) next.reject(new Error('the pool is closing'));
    for (const client of this.idle.splice(0)) {
      client.release(true);
      this.opened -= 1;
    }
  }
}

/**
 * An error PostgreSQL answered for a statement (SQLSTATE and severity): the connection itself is fine — unless the
 * severity is FATAL or PANIC (the server ended the session: a shutdown's 57P01).
 */
function isStatementError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('severity' in err)) return false;
  const { severity, code } = err as { severity?: unknown; code?: unknown };
  return typeof code === 'string' && severity !== 'FATAL' && severity !== 'PANIC';
}

/** The same interface over a Prisma transaction, for statements that must join a larger transaction. */
export function inTransaction(tx: Tx): SqlExecutor {
  return { query: <T>(text: string, values: readonly unknown[]) => tx.$queryRawUnsafe<T[]>(text, ...values) };
}
