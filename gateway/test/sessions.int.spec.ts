import { randomUUID } from 'node:crypto';
import { eachRedis } from '@confab/devkit';
import { connectRedis, type RedisClient } from '@confab/runtime';
import { SessionStore } from '../src/sessions';

// SessionStore against the real Redis, single and clustered: which sessions a session-ending event ends.
const prefix = `confab-test-sessions-${randomUUID()}`;
let redis: RedisClient;
let store: SessionStore;
const connect = (target: { url: string; cluster: boolean }) => {
  redis = connectRedis(target, { maxRetriesPerRequest: null });
  store = new SessionStore(redis, { prefix, ttlSeconds: 60 });
  return redis;
};

const fields = (seen: string[]) => ({ userId: 7, email: 'hamlet@zulip.com', apiKey: 'k'.repeat(32), seen });

eachRedis({ describe, beforeAll, afterAll }, { prefix, connect }, () => {
  describe('SessionStore.endAllOf', () => {
    it('ends the sessions that have not seen the event, and keeps one signed in after it', async () => {
      const before = await store.create(fields([]));
      const after = await store.create(fields(['password-changed-1']));
      const other = await store.create({ ...fields([]), userId: 8 });
      await store.endAllOf(7, 'password-changed-1');
      expect(await store.find(before.id)).toBeNull();
      expect(await store.find(after.id)).toEqual(after.session);
      expect(await store.find(other.id)).toEqual(other.session);
      // A later event ends the survivor too.
      await store.endAllOf(7, 'password-changed-2');
      expect(await store.find(after.id)).toBeNull();
      expect(await redis.smembers(`${prefix}:{sessions}:user:7`)).toEqual([]);
    });

    it('ends every session of the user when no event is named', async () => {
      const a = await store.create(fields(['x']));
      const b = await store.create(fields([]));
      await store.endAllOf(7);
      expect([await store.find(a.id), await store.find(b.id)]).toEqual([null, null]);
    });
  });
});
