import { randomUUID } from 'node:crypto';
import { eachRedis } from '@confab/devkit';
import { unauthorized } from '@confab/errors';
import { CausalLog, causalLogKey, causalRealmLogKey } from '@confab/events';
import type { CausalEvent, UserIdentity } from '@confab/identity';
import { connectRedis, type RedisClient } from '@confab/runtime';
import { Authenticator } from '../src/auth';

// The gateway's credential cache and rate limits against the real Redis, single and clustered: when a cached
// identity may predate the user's own change, and what replicas share.
const runPrefix = `confab-test-auth-${randomUUID()}`;
let prefix = runPrefix;
let redis: RedisClient;
const hamlet: UserIdentity = {
  kind: 'user',
  userId: 7,
  realmId: 1,
  role: 400,
  email: 'hamlet@zulip.com',
  isBot: false,
};
const credentials = { email: hamlet.email, apiKey: 'k'.repeat(32) };

/**
 * A gateway whose event handling is played by the test: `handled` maps an event id to the progress mark at which
 * this gateway finished applying it (as EventBus.progress/handledSince count).
 */
function gateway(
  deactivated: { now: boolean },
  handled: Map<string, number>,
  onMark: () => void = () => undefined,
  settingsAnswers: (answer: () => UserIdentity) => Promise<UserIdentity> = async (answer) => answer(),
) {
  let progress = 0;
  const verified: string[] = [];
  const authenticator = new Authenticator(redis, {
    prefix,
    cacheTtlSeconds: 60,
    perUserPerMinute: 1000,
    perIpPerMinute: 1000,
    verify() {
      verified.push('settings');
      return settingsAnswers(() => {
        if (deactivated.now) throw unauthorized('Account is deactivated');
        return hamlet;
      });
    },
    mayBeStale: {
      mark: () => {
        const mark = progress;
        onMark();
        return mark;
      },
      stale: (events: readonly CausalEvent[], mark: number) =>
        events.some((e) => !handled.has(e.id) || handled.get(e.id)! > mark),
    },
  });
  return {
    authenticator,
    verified,
    finish(eventId: string) {
      handled.set(eventId, ++progress);
    },
  };
}

eachRedis(
  { describe, beforeAll, afterAll },
  { prefix: runPrefix, connect: (target) => (redis = connectRedis(target, { maxRetriesPerRequest: null })) },
  () => {
    describe("Authenticator: a cached identity and the user's own recent change", () => {
      it('asks settings again when the change was applied only after the cache was read', async () => {
        const deactivated = { now: false };
        const handled = new Map<string, number>();
        const during: { lookup?: () => void } = {};
        const g = gateway(deactivated, handled, () => during.lookup?.());
        expect((await g.authenticator.authenticate(credentials)).identity).toMatchObject({ userId: 7 });
        expect(g.verified).toEqual(['settings']);

        // The user deactivates themselves: settings records the event for their next request.
        const event = { type: 'user.deactivated', id: randomUUID() };
        await new CausalLog(redis, prefix).record(7, [event]);
        deactivated.now = true;
        // The gateway applies the event while this request's cache read is in flight: the read may have found the entry
        // the handler then dropped, so the cached identity must not be trusted.
        during.lookup = () => queueMicrotask(() => g.finish(event.id));
        await expect(g.authenticator.authenticate(credentials)).rejects.toMatchObject({
          status: 401,
          message: 'Account is deactivated',
        });
        expect(g.verified).toEqual(['settings', 'settings']);
      });

      it('trusts the cache for events applied before the cache was read, and asks while one is not applied', async () => {
        const deactivated = { now: false };
        const handled = new Map<string, number>();
        const g = gateway(deactivated, handled);
        await redis.del(causalLogKey(prefix, 7));
        await g.authenticator.authenticate(credentials);
        const earlier = { type: 'user.updated', id: randomUUID() };
        await new CausalLog(redis, prefix).record(7, [earlier]);
        g.verified.length = 0;
        await g.authenticator.authenticate(credentials);
        expect(g.verified).toEqual(['settings']);
        g.finish(earlier.id);
        g.verified.length = 0;
        await g.authenticator.authenticate(credentials);
        expect(g.verified).toEqual([]);
      });
    });

    describe("Authenticator: the organization's recent settings changes", () => {
      it("carries them in every member's identity, with the member's own, from the cache and after a verification", async () => {
        const ophelia: UserIdentity = { ...hamlet, userId: 8, realmId: 2, email: 'ophelia@zulip.com' };
        const own = { email: ophelia.email, apiKey: 'o'.repeat(32) };
        const verified: number[] = [];
        const authenticator = new Authenticator(redis, {
          prefix,
          cacheTtlSeconds: 60,
          perUserPerMinute: 1000,
          perIpPerMinute: 1000,
          verify: async () => {
            verified.push(ophelia.userId);
            return ophelia;
          },
        });
        await redis.del(causalLogKey(prefix, 8), causalRealmLogKey(prefix, 2));
        const log = new CausalLog(redis, prefix);
        const mine = { type: 'user_settings.changed', id: randomUUID() };
        const byAdmin = { type: 'realm.updated', id: randomUUID() };
        // Another organization's change is none of hers.
        await log.recordRealm(3, [{ type: 'realm.updated', id: randomUUID() }]);
        await log.record(8, [mine]);
        await log.recordRealm(2, [byAdmin]);

        // A cache miss: verified, cached, and both logs read in the caching script.
        expect((await authenticator.authenticate(own)).identity.causal).toEqual([mine, byAdmin]);
        // A cache hit: both logs read in the lookup script.
        expect((await authenticator.authenticate(own)).identity.causal).toEqual([mine, byAdmin]);
        expect(verified).toEqual([8]);

        // An administrator's own change is in their log and the organization's: carried once.
        await log.record(8, [byAdmin]);
        expect((await authenticator.authenticate(own)).identity.causal).toEqual([byAdmin, mine]);
      });
    });

    describe('Authenticator: forgetting a user while one of their requests is being verified', () => {
      // Nothing cached, counted or forgotten yet.
      beforeEach(() => {
        prefix = `${runPrefix}:${randomUUID()}`;
      });

      it("does not cache what settings answered before the change that made the gateway forget the user's keys", async () => {
        const deactivated = { now: false };
        let answerNow: () => void = () => undefined;
        const g = gateway(deactivated, new Map(), undefined, async (answer) => {
          // Settings reads the account (still active) and its answer is on the wire when the change lands.
          const identity = answer();
          await new Promise<void>((resolve) => (answerNow = resolve));
          return identity;
        });
        const inFlight = g.authenticator.authenticate(credentials);
        await waitFor(() => g.verified.length === 1);
        deactivated.now = true;
        await g.authenticator.forgetUser(7);
        answerNow();
        // That request began before the change and goes through; the next one must not find its answer cached.
        expect((await inFlight).identity).toMatchObject({ userId: 7 });
        await expect(g.authenticator.authenticate(credentials)).rejects.toMatchObject({
          status: 401,
          message: 'Account is deactivated',
        });
        expect(g.verified).toEqual(['settings', 'settings']);
      });

      it('a forget drops the key whichever way it interleaves with caching it', async () => {
        const deactivated = { now: false };
        const g = gateway(deactivated, new Map());
        for (let round = 0; round < 40; round++) {
          deactivated.now = false;
          await Promise.all([g.authenticator.authenticate(credentials), g.authenticator.forgetUser(7)]);
          await g.authenticator.authenticate(credentials);
          deactivated.now = true;
          await g.authenticator.forgetUser(7);
          await expect(g.authenticator.authenticate(credentials)).rejects.toMatchObject({ status: 401 });
        }
      });
    });

    describe('Authenticator: rate limits shared by gateway replicas', () => {
      beforeEach(() => {
        prefix = `${runPrefix}:${randomUUID()}`;
      });

      it("counts a user's requests and a client address's across gateways in one window", async () => {
        const [one, two] = [gateway({ now: false }, new Map()), gateway({ now: false }, new Map())];
        const now = Date.now();
        const first = await one.authenticator.authenticate(credentials, now);
        const second = await two.authenticator.authenticate(credentials, now);
        const third = await one.authenticator.authenticate(credentials, now);
        expect([first.rate.remaining, second.rate.remaining, third.rate.remaining]).toEqual([999, 998, 997]);
        expect((await one.authenticator.countAnonymous('10.0.0.1', now)).remaining).toBe(999);
        expect((await two.authenticator.countAnonymous('10.0.0.1', now)).remaining).toBe(998);
        // The next window starts again.
        expect((await two.authenticator.authenticate(credentials, now + 60_000)).rate.remaining).toBe(999);
      });
    });
  },
);

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
