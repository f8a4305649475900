import { randomBytes } from 'node:crypto';
import { eachRedis } from '@confab/devkit';
import { connectRedis, type RedisClient } from '@confab/runtime';
import { RedisPresenceStore } from '../src/repositories/presence.redis';

const RULES = { minUpdateSeconds: 55, onlineGapSeconds: 70 };
const REALM = 7;

const prefix = `confab-test-${randomBytes(4).toString('hex')}`;
let redis: RedisClient;
let store: RedisPresenceStore;
const connect = (target: { url: string; cluster: boolean }) => {
  redis = connectRedis(target);
  store = new RedisPresenceStore(redis, prefix, 30 * 86_400);
  return redis;
};

eachRedis({ describe, beforeAll, afterAll }, { prefix, connect }, () =>
  describe('presence in Redis', () => {
    const now = Math.floor(Date.now() / 1000);

    // An organization's four keys share a slot (their hash tag is the realm): one DEL each.
    afterEach(async () => {
      for (const realm of [REALM, REALM + 1]) {
        await redis.del(...['seq', 'u', 'id', 't'].map((suffix) => `${prefix}:presence:{${realm}}:${suffix}`));
      }
    });

    it("applies Zulip's rules: a first report creates, reports within a minute change nothing, a gap comes online", async () => {
      const first = await store.report(REALM, 1, now, false, RULES);
      expect(first).toMatchObject({ created: true, changed: true, becameOnline: false });
      expect(first.entry).toMatchObject({ activeTimestamp: null, idleTimestamp: now });

      const soon = await store.report(REALM, 1, now + 30, true, RULES);
      // Never active before: becoming active counts as coming online, and the active time is set.
      expect(soon).toMatchObject({ created: false, changed: true, becameOnline: true });
      expect(soon.entry).toMatchObject({ activeTimestamp: now + 30, idleTimestamp: now + 30 });

      const again = await store.report(REALM, 1, now + 60, true, RULES);
      expect(again).toMatchObject({ changed: false, becameOnline: false });
      expect(again.entry.lastUpdateId).toBe(soon.entry.lastUpdateId);

      const idle = await store.report(REALM, 1, now + 120, false, RULES);
      expect(idle).toMatchObject({ changed: true, becameOnline: false });
      expect(idle.entry).toMatchObject({ activeTimestamp: now + 30, idleTimestamp: now + 120 });

      const back = await store.report(REALM, 1, now + 200, true, RULES);
      expect(back).toMatchObject({ changed: true, becameOnline: true });
    });

    it('answers what changed after an update id, or who was connected since a time, and nothing of other realms', async () => {
      const a = await store.report(REALM, 1, now - 3 * 86_400, true, RULES);
      const b = await store.report(REALM, 2, now, true, RULES);
      await store.report(REALM + 1, 3, now, true, RULES);
      expect((await store.realm(REALM, { afterUpdateId: null, since: now - 86_400 })).map((e) => e.userId)).toEqual([
        2,
      ]);
      expect((await store.realm(REALM, { afterUpdateId: null, since: now - 7 * 86_400 })).map((e) => e.userId)).toEqual(
        [1, 2],
      );
      expect(
        (await store.realm(REALM, { afterUpdateId: a.entry.lastUpdateId, since: 0 })).map((e) => e.userId),
      ).toEqual([2]);
      expect(await store.realm(REALM, { afterUpdateId: b.entry.lastUpdateId, since: 0 })).toEqual([]);
      expect(await store.user(REALM, 2)).toEqual(b.entry);
    });

    it('starts the update counter from the clock, so ids stay above those seen before Redis lost them', async () => {
      const before = Date.now();
      const write = await store.report(REALM, 1, now, true, RULES);
      expect(write.entry.lastUpdateId).toBeGreaterThan(before);
      const next = await store.report(REALM, 2, now, true, RULES);
      expect(next.entry.lastUpdateId).toBe(write.entry.lastUpdateId + 1);
    });

    it('forgets entries idle beyond the retention, and expires the keys by themselves', async () => {
      const short = new RedisPresenceStore(redis, prefix, 3600);
      await short.report(REALM, 1, now - 7200, true, RULES);
      await short.report(REALM, 2, now, true, RULES);
      expect(await short.user(REALM, 1)).toBeNull();
      expect(await redis.zcard(`${prefix}:presence:{${REALM}}:t`)).toBe(1);
      for (const suffix of ['seq', 'u', 'id', 't']) {
        const ttl = await redis.ttl(`${prefix}:presence:{${REALM}}:${suffix}`);
        expect(ttl).toBeGreaterThan(3500);
        expect(ttl).toBeLessThanOrEqual(3600);
      }
    });

    it('replaces an entry when presence sharing is switched, and removes one', async () => {
      await store.report(REALM, 1, now, true, RULES);
      const off = await store.reset(REALM, 1, { active: null, idle: now - 260 });
      expect(off).toMatchObject({ created: true, changed: true });
      expect(await store.user(REALM, 1)).toMatchObject({ activeTimestamp: null, idleTimestamp: now - 260 });
      await store.remove(REALM, 1);
      expect(await store.user(REALM, 1)).toBeNull();
      expect(await store.realm(REALM, { afterUpdateId: 0, since: 0 })).toEqual([]);
    });
  }),
);
