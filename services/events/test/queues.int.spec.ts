import { randomBytes } from 'node:crypto';
import { eachRedis, type TestRedis } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { connectRedis, type RedisClient } from '@confab/runtime';
import type { QueueDescriptor } from '../src/domain/descriptor';
import { getEvents } from '../src/domain/polling';
import { QueueStore } from '../src/store/queues';
import { Wakeups } from '../src/store/wakeups';
import { queue } from './queue-fixtures';

// With the hash tag the service gives its store (services/events/src/main.ts): one slot on a Redis Cluster.
const prefix = `confab-test-${randomBytes(4).toString('hex')}:{events}:`;
const logger = createLogger({ name: 'events-test', level: 'silent' });
let target: TestRedis;
let clients: RedisClient[] = [];
const redis = () => {
  const client = connectRedis(target, { maxRetriesPerRequest: null });
  clients.push(client);
  return client;
};
/** Every client the suite opened on one Redis, closed together after it. */
const connect = (redisTarget: TestRedis) => {
  [target, clients] = [redisTarget, []];
  return { quit: () => Promise.all(clients.map((c) => c.quit())) };
};

const descriptor = (userId: number, overrides: Partial<QueueDescriptor> = {}): QueueDescriptor =>
  queue({ userId, ...overrides });

const event = (n: number) => JSON.stringify({ type: 'update_message_flags', messages: [n] });

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

eachRedis({ describe, beforeAll, afterAll }, { prefix, connect }, () => {
  describe('QueueStore (Redis)', () => {
    let store: QueueStore;
    beforeAll(() => {
      store = new QueueStore(redis(), prefix, 60_000);
    });

    it('gives each queue its own text when one broker event appends shared and distinct texts', async () => {
      const a = await store.create(descriptor(1));
      const b = await store.create(descriptor(2));
      const c = await store.create(descriptor(3));
      const pairs: [string, string][] = [
        [a, event(1)],
        [b, event(2)],
        [c, event(1)],
        [b, event(1)],
        [a, event(3)],
      ];
      expect(await store.append(pairs)).toEqual([a, b, c, b, a]);
      expect((await store.read(a)).map((e) => e.json)).toEqual([event(1), event(3)]);
      expect((await store.read(b)).map((e) => e.json)).toEqual([event(2), event(1)]);
      expect((await store.read(c)).map((e) => e.json)).toEqual([event(1)]);
    });

    it('numbers events per queue and acknowledges them with Zulip’s checks', async () => {
      const queueId = await store.create(descriptor(1));
      expect(
        await store.append([
          [queueId, event(1)],
          [queueId, event(2)],
          [queueId, event(3)],
        ]),
      ).toEqual([queueId, queueId, queueId]);
      const first = await store.poll(queueId, 1, -1, false);
      expect(first).toMatchObject({ status: 'ok', events: [{ id: 0 }, { id: 1 }, { id: 2 }] });
      const acked = await store.poll(queueId, 1, 1, false);
      expect(acked).toMatchObject({ status: 'ok', events: [{ id: 2, json: event(3) }] });
      expect(await store.poll(queueId, 1, 0, false)).toEqual({ status: 'pruned' });
      expect(await store.poll(queueId, 1, 5, false)).toEqual({ status: 'notin' });
      expect(await store.poll(queueId, 2, 2, false)).toEqual({ status: 'bad' });
    });

    it("keeps a queue for the idle timeout its client asked for, polls included, and others for the server's", async () => {
      const short = new QueueStore(redis(), prefix, 300);
      const mobile = await short.create(descriptor(70, { idleTimeoutMs: 60_000 }));
      const plain = await short.create(descriptor(70));
      // A poll renews each queue for its own timeout, not the server's.
      expect(await short.poll(mobile, 70, null, false)).toMatchObject({ status: 'ok' });
      // Watched without polling it (a poll would renew it).
      const watcher = redis();
      const expired = async () => (await watcher.exists(short.key('q', plain))) === 0;
      const deadline = Date.now() + 5000;
      while (!(await expired())) {
        if (Date.now() > deadline) throw new Error('the default queue did not expire');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await short.poll(plain, 70, null, false)).toEqual({ status: 'bad' });
      expect(await short.poll(mobile, 70, null, false)).toMatchObject({ status: 'ok' });
      expect(await short.append([[mobile, event(1)]])).toEqual([mobile]);
    });

    it('appends a fan-out at most once per event id and skips expired queues', async () => {
      const live = await store.create(descriptor(1));
      const eventId = `e-${randomBytes(4).toString('hex')}`;
      const pairs: [string, string][] = [
        [live, event(1)],
        ['gone', event(1)],
      ];
      expect(await store.append(pairs, { eventId, ttlSeconds: 60 })).toEqual([live]);
      expect(await store.append(pairs, { eventId, ttlSeconds: 60 })).toBeNull();
      expect(await store.isHandled(eventId)).toBe(true);
      expect((await store.read(live)).map((e) => e.id)).toEqual([0]);
    });

    it('appends several broker events in one step: each at most once, in order, one wake-up for all', async () => {
      const one = await store.create(descriptor(11));
      const two = await store.create(descriptor(12));
      const [x, y] = [`e-${randomBytes(4).toString('hex')}`, `e-${randomBytes(4).toString('hex')}`];
      expect(await store.append([[one, event(1)]], { eventId: x, ttlSeconds: 60 })).toEqual([one]);
      const listener = redis();
      const notices: string[] = [];
      await listener.subscribe(store.wakeChannel);
      listener.on('message', (_channel, message: string) => notices.push(message));
      const results = await store.appendBatch(
        [
          { eventId: x, pairs: [[one, event(1)]] },
          {
            eventId: y,
            pairs: [
              [one, event(2)],
              [two, event(2)],
              ['gone', event(2)],
            ],
          },
          { pairs: [[two, event(3)]] },
        ],
        60,
      );
      expect(results).toEqual([null, [one, two], [two]]);
      expect((await store.read(one)).map((e) => e.json)).toEqual([event(1), event(2)]);
      expect((await store.read(two)).map((e) => e.json)).toEqual([event(2), event(3)]);
      await waitFor(() => notices.length > 0);
      expect(notices.map((n) => JSON.parse(n) as { q: string[] })).toEqual([{ q: [one, two] }]);
    });

    it('indexes queues by user and realm, and forgets deleted ones', async () => {
      const a = await store.create(descriptor(7));
      const b = await store.create(descriptor(7, { allPublicStreams: true }));
      const index = await store.indexes({ users: [7], realms: [1], publicRealms: [1] });
      expect(index.users.get(7)!.sort()).toEqual([a, b].sort());
      expect(index.realms.get(1)).toEqual(expect.arrayContaining([a, b]));
      expect(index.publicRealms.get(1)).toContain(b);
      expect(index.publicRealms.get(1)).not.toContain(a);
      expect((await store.descriptors([a])).get(a)).toMatchObject({ userId: 7 });
      expect(await store.delete(a, 8)).toBe(false);
      expect(await store.delete(a, 7)).toBe(true);
      expect((await store.indexes({ users: [7], realms: [], publicRealms: [] })).users.get(7)).toEqual([b]);
      expect(await store.poll(a, 7, -1, false)).toEqual({ status: 'bad' });
    });

    it('lets a queue expire after the idle timeout', async () => {
      const quick = new QueueStore(redis(), prefix, 300);
      const queueId = await quick.create(descriptor(3));
      await new Promise((r) => setTimeout(r, 500));
      expect(await quick.poll(queueId, 3, -1, false)).toEqual({ status: 'bad' });
    });
  });

  describe('long polls across replicas', () => {
    // Two replicas: each its own connections and wake-up listener, one shared Redis.
    const replica = async () => {
      const store = new QueueStore(redis(), prefix, 60_000);
      const wakeups = new Wakeups(clients.at(-1)!, redis(), store.wakeChannel, logger);
      await wakeups.start();
      return { store, wakeups, heartbeat: { seconds: 30, jitterSeconds: 0 } };
    };

    it('wakes a poll held by one replica when another appends', async () => {
      const one = await replica();
      const two = await replica();
      const queueId = await one.store.create(descriptor(5));
      const started = Date.now();
      const poll = getEvents(one, {
        userId: 5,
        realmId: 1,
        queueId,
        lastEventId: -1,
        dontBlock: false,
        clientGone: new Promise(() => undefined),
      });
      await new Promise((r) => setTimeout(r, 200));
      await two.store.append([[queueId, event(9)]], { eventId: `w-${randomBytes(4).toString('hex')}`, ttlSeconds: 60 });
      expect((await poll).map((e) => e.json)).toEqual([event(9)]);
      expect(Date.now() - started).toBeLessThan(5000);
      // The answer ended the wait with the read: the queue no longer marks a waiting poll.
      expect(await redis().hget(one.store.key('q', queueId), 'w')).toBeNull();
    });

    it('answers an older poll (empty) when a newer poll of the same queue starts on another replica', async () => {
      const one = await replica();
      const two = await replica();
      const queueId = await one.store.create(descriptor(6));
      const gone = new Promise<void>(() => undefined);
      const older = getEvents(one, {
        userId: 6,
        realmId: 1,
        queueId,
        lastEventId: -1,
        dontBlock: false,
        clientGone: gone,
      });
      await new Promise((r) => setTimeout(r, 200));
      const newer = getEvents(two, {
        userId: 6,
        realmId: 1,
        queueId,
        lastEventId: -1,
        dontBlock: false,
        clientGone: gone,
      });
      expect(await older).toEqual([]);
      two.wakeups.close();
      expect(await newer).toEqual([]);
    });

    it('answers a woken poll whose queue is gone (Redis lost its data) with BAD_EVENT_QUEUE_ID, not another wait', async () => {
      const one = await replica();
      const queueId = await one.store.create(descriptor(9));
      const poll = getEvents(one, {
        userId: 9,
        realmId: 1,
        queueId,
        lastEventId: -1,
        dontBlock: false,
        clientGone: new Promise(() => undefined),
      });
      // The poll waits once its mark is set; then the queue disappears and a wake-up arrives (as after a reconnect).
      const direct = redis();
      const deadline = Date.now() + 5000;
      while ((await direct.hget(one.store.key('q', queueId), 'w')) === null) {
        if (Date.now() > deadline) throw new Error('the poll never waited');
        await new Promise((r) => setTimeout(r, 10));
      }
      await direct.del(one.store.key('q', queueId), `${one.store.key('q', queueId)}:ev`);
      await direct.publish(one.store.wakeChannel, JSON.stringify({ q: [queueId] }));
      await expect(poll).rejects.toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', status: 400 });
      expect(one.wakeups.waiting).toBe(0);
    });

    it('answers with a heartbeat when nothing arrives', async () => {
      const one = await replica();
      const queueId = await one.store.create(descriptor(8));
      const events = await getEvents(
        { ...one, heartbeat: { seconds: 0.2, jitterSeconds: 0 } },
        { userId: 8, realmId: 1, queueId, lastEventId: -1, dontBlock: false, clientGone: new Promise(() => undefined) },
      );
      expect(events).toEqual([{ id: 0, json: JSON.stringify({ type: 'heartbeat' }) }]);
    });
  });
});
