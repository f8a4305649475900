import { LOCAL_DEFAULTS } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { Queue } from 'bullmq';
import pg from 'pg';
import { bullOptions, isUniqueViolation, openRedis, pingDatabase } from '@confab/runtime';

const postgresUrl = process.env.DATABASE_URL ?? LOCAL_DEFAULTS.postgresUrl;
const redisUrl = process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl;
const logger = createLogger({ name: 'runtime-test', level: 'silent' });

describe('@confab/runtime', () => {
  it('recognises a unique violation however PostgreSQL reported it, and nothing else', async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query('CREATE TEMP TABLE once (k int PRIMARY KEY)');
      await client.query('INSERT INTO once VALUES (1)');
      const duplicate = await client.query('INSERT INTO once VALUES (1)').catch((err: unknown) => err);
      const nullValue = await client.query('INSERT INTO once VALUES (NULL)').catch((err: unknown) => err);
      expect(isUniqueViolation(duplicate)).toBe(true);
      // As Prisma wraps the driver's error (raw statements), and as Prisma reports its own (P2002).
      expect(isUniqueViolation(new Error('wrapped', { cause: duplicate }))).toBe(true);
      expect(isUniqueViolation({ code: 'P2010', meta: { code: '23505' } })).toBe(true);
      expect(isUniqueViolation({ code: 'P2002' })).toBe(true);
      expect(isUniqueViolation(nullValue)).toBe(false);
      expect(isUniqueViolation(new Error('other'))).toBe(false);
      expect(isUniqueViolation(null)).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('answers whether the database is reachable', async () => {
    const up = new pg.Pool({ connectionString: postgresUrl, max: 1 });
    const querier = { $queryRawUnsafe: (text: string) => up.query(text) };
    expect(await pingDatabase(querier)).toBe(true);
    await up.end();
    expect(await pingDatabase(querier)).toBe(false);
  });

  it("puts a service's queues under the deployment's prefix on the configured Redis", async () => {
    const prefix = `runtime-test-${process.pid}-${Date.now()}`;
    const queue = new Queue('probe', bullOptions(redisUrl, prefix));
    const redis = openRedis(redisUrl, logger);
    try {
      await queue.add('job', {});
      const keys = await redis.keys(`${prefix}:bull:probe:*`);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await redis.quit();
    }
  });
});
