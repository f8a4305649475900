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

/**
 * A plain pg pool for the hot paths (sending, reading): Prisma's per-query overhead is about a millisecond of CPU,
 * which a 2,000 sends/s target cannot afford. Statements here are still this service's own SQL, in repositories.
 */
export class SqlPool implements SqlExecutor {
  private readonly pool: pg.Pool;
  /**
   * Whether statements are kept prepared, by name, on their connection: not through a transaction-mode PgBouncer
   * (`pgbouncer=true` in the URL, as Prisma marks it), whose next transaction may run on another server connection
   * where the name is unknown (docs/architecture.md, "PostgreSQL connections").
   */
  private readonly named: boolean;

  /**
   * `genericPlans`: the pool's connections plan each prepared statement once, for any values (plan_cache_mode
   * force_generic_plan), instead of five custom plans first. For statements whose plan does not depend on their values
   * and costs more to make than to run: the group commit's batch statements (a dozen CTEs per send) took 12 ms to plan
   * for a batch of eight sends, more than half of PostgreSQL's CPU per send (bench/RESULTS.md, "Issue 33 ... sendpath").
   * Not through PgBouncer, where statements are not kept prepared and a connection's setting would leak to others.
   */
  constructor(url: string, max: number, { genericPlans = false }: { genericPlans?: boolean } = {}) {
    this.named = new URL(url).searchParams.get('pgbouncer') !== 'true';
    const options = genericPlans && this.named ? '-c plan_cache_mode=force_generic_plan' : undefined;
    // Such connections stay open (no idle timeout): their plans are what they are for.
    this.pool = new pg.Pool({ connectionString: url, max, ...(options ? { options, idleTimeoutMillis: 0 } : {}) });
    this.pool.on('error', () => undefined);
  }

  private nameOf(text: string, options: { prepare?: boolean }): string | undefined {
    return this.named && options.prepare !== false ? statementName(text) : undefined;
  }

  async query<T>(text: string, values: readonly unknown[], options: { prepare?: boolean } = {}): Promise<T[]> {
    // Named statements are parsed and planned once per connection (the hot statements come in few shapes).
    const name = this.nameOf(text, options);
    const result = await this.pool.query({ name, text, values: values as unknown[] });
    return result.rows as T[];
  }

  /** Statements on one connection in one transaction (committed when `fn` resolves, rolled back when it throws). */
  async transaction<T>(fn: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const executor: SqlExecutor = {
      query: async <R>(text: string, values: readonly unknown[], options: { prepare?: boolean } = {}) => {
        const name = this.nameOf(text, options);
        const result = await client.query({ name, text, values: values as unknown[] });
        return result.rows as R[];
      },
    };
    let broken = false;
    try {
      await client.query('BEGIN');
      const value = await fn(executor);
      await client.query('COMMIT');
      return value;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** The same interface over a Prisma transaction, for statements that must join a larger transaction. */
export function inTransaction(tx: Tx): SqlExecutor {
  return { query: <T>(text: string, values: readonly unknown[]) => tx.$queryRawUnsafe<T[]>(text, ...values) };
}
