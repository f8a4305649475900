import pg from 'pg';
import { migratedDomain } from './fixtures';

/**
 * One PostgreSQL pool per messaging process (docs/architecture.md, "PostgreSQL connections"): Prisma, the plain SQL
 * and the group commit's kept connections together never open more than MESSAGING_DB_POOL connections.
 */
describe('the messaging process pool', () => {
  const POOL = 5;
  let built: Awaited<ReturnType<typeof migratedDomain>>;
  let watcher: pg.Client;

  beforeAll(async () => {
    built = await migratedDomain('onepool', POOL);
    watcher = new pg.Client({ connectionString: built.url });
    await watcher.connect();
  });

  afterAll(async () => {
    await watcher.end();
    await built.drop();
  });

  /** Connections to the spec's database other than the watcher's own. */
  async function openConnections(): Promise<number> {
    const { rows } = await watcher.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows[0]!.n;
  }

  it('holds Prisma, plain SQL and the group commit to MESSAGING_DB_POOL connections in all', async () => {
    const { store } = built;
    const sleep = 'SELECT pg_sleep(0.05)::text AS slept';
    const work = Promise.all([
      ...Array.from({ length: 12 }, () => store.db.$queryRawUnsafe(sleep)),
      ...Array.from({ length: 12 }, () => store.sql.query(sleep, [])),
      ...Array.from({ length: 6 }, () => store.sql.planOnce.query(sleep, [])),
      ...Array.from({ length: 4 }, () =>
        store.transaction(async (tx) => ({ result: await tx.$queryRawUnsafe(sleep), events: [] })),
      ),
    ]);
    let settled = false;
    void work.finally(() => {
      settled = true;
    });
    let most = 0;
    while (!settled) most = Math.max(most, await openConnections());
    await work;
    // Every request waited for one of the pool's connections, so all of them were open at some moment.
    expect(most).toBe(POOL);
  });

  it('plans once only on the group commit’s kept connections; the rest of the pool keeps the default', async () => {
    const { store } = built;
    const mode = 'SELECT current_setting($1) AS mode';
    const [kept] = await store.sql.planOnce.query<{ mode: string }>(mode, ['plan_cache_mode']);
    expect(kept!.mode).toBe('force_generic_plan');
    const plain = await Promise.all(
      Array.from({ length: POOL }, () => store.sql.query<{ mode: string }>(mode, ['plan_cache_mode'])),
    );
    expect(plain.map((r) => r[0]!.mode)).toEqual(Array(POOL).fill('auto'));
    const prisma = await store.db.$queryRawUnsafe<{ mode: string }[]>(mode, 'plan_cache_mode');
    expect(prisma[0]!.mode).toBe('auto');
  });
});
