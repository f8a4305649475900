import { eachRedis, LOCAL_DEFAULTS, type TestRedis } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { Queue, QueueEvents, Worker } from 'bullmq';
import pg from 'pg';
import {
  bullOptions,
  closeBullConnections,
  isUniqueViolation,
  openRedis,
  ReplicaForgets,
  pingDatabase,
  type RedisClient,
} from '@confab/runtime';

const postgresUrl = process.env.DATABASE_URL ?? LOCAL_DEFAULTS.postgresUrl;
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
});

const prefix = `runtime-test-${process.pid}-${Date.now()}`;
let target: TestRedis;
let redis: RedisClient;
const connect = (redisTarget: TestRedis) => {
  target = redisTarget;
  return (redis = openRedis(target, logger));
};

eachRedis({ describe, beforeAll, afterAll }, { prefix, connect }, () =>
  describe('BullMQ queues', () => {
    it("puts a service's queues under the deployment's prefix, with the {bull} hash tag, and runs their jobs", async () => {
      const options = bullOptions({ ...target, prefix });
      const queue = new Queue('probe', options);
      // From the stream's start: a job may finish before the listener's first read, which '$' (the default) misses.
      const events = new QueueEvents('probe', { ...bullOptions({ ...target, prefix }), lastEventId: '0-0' });
      const worker = new Worker(
        'probe',
        async (job) => `done ${String(job.data.n)}`,
        bullOptions({ ...target, prefix }),
      );
      try {
        await events.waitUntilReady();
        const job = await queue.add('job', { n: 7 });
        expect(await job.waitUntilFinished(events, 20_000)).toBe('done 7');
        // The queue's keys carry the tag; on a cluster they all live in its slot.
        expect(await redis.exists(`${prefix}:{bull}:probe:meta`)).toBe(1);
        expect(await queue.getJobCounts('completed')).toEqual({ completed: 1 });
        expect(options.prefix).toBe(`${prefix}:{bull}`);
      } finally {
        await worker.close();
        await events.close();
        await queue.obliterate({ force: true });
        await queue.close();
        await closeBullConnections();
      }
    });

    it('forgets what one replica forgot in every replica, once in each', async () => {
      const channel = `${prefix}:svc:forget`;
      const forgotten: string[][] = [[], []];
      const subscribers = [openRedis(target, logger), openRedis(target, logger)];
      const replicas = subscribers.map((subscriber, i) =>
        new ReplicaForgets(redis, subscriber, channel, logger).on('realm', (key) => forgotten[i]!.push(key)),
      );
      try {
        await Promise.all(replicas.map((replica) => replica.start()));
        replicas[0]!.forget('realm', 7);
        await waitUntil(() => forgotten[1]!.length > 0);
        replicas[1]!.forget('realm', 8);
        await waitUntil(() => forgotten[0]!.length > 1);
        expect(forgotten).toEqual([
          ['7', '8'],
          ['7', '8'],
        ]);
      } finally {
        await Promise.all(subscribers.map((subscriber) => subscriber.quit()));
      }
    });
  }),
);

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
