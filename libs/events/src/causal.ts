import type { CausalEvent } from '@confab/identity';
import type { EventBus } from './bus.js';

/** How many of a user's latest events the log keeps, and for how long after their last write (seconds). */
export const CAUSAL_LOG_LENGTH = 8;
export const CAUSAL_LOG_TTL_SECONDS = 60;

/**
 * The same for an organization's log (its settings changes, in force for every member's next request): fewer and
 * shorter-lived, since every member's requests carry them and the events reach consumers in milliseconds.
 */
export const CAUSAL_REALM_LOG_LENGTH = 4;
export const CAUSAL_REALM_LOG_TTL_SECONDS = 15;

/**
 * What the gateway's keys start with: the deployment's prefix and the hash tag `{auth}`. The causal logs carry it
 * too, because the gateway's authentication script reads a user's log with their cached credentials and rate
 * limit, which on a Redis Cluster only works within one slot (docs/architecture.md, "Redis keys").
 */
export function authKeyPrefix(prefix: string): string {
  return `${prefix}:{auth}:`;
}

/** The Redis list of a user's recent events, newest first, as `<routing key> <event id>` entries. */
export function causalLogKey(prefix: string, userId: number): string {
  return `${causalLogPrefix(prefix)}${userId}`;
}

/** What precedes the user id in `causalLogKey` (for scripts that build the key from an id they read). */
export function causalLogPrefix(prefix: string): string {
  return `${authKeyPrefix(prefix)}causal:`;
}

/** The Redis list of an organization's recent `realm.*` events, as `causalLogKey`'s (same hash tag `{auth}`). */
export function causalRealmLogKey(prefix: string, realmId: number): string {
  return `${causalRealmLogPrefix(prefix)}${realmId}`;
}

/** What precedes the organization id in `causalRealmLogKey`. */
export function causalRealmLogPrefix(prefix: string): string {
  return `${causalLogPrefix(prefix)}realm:`;
}

/**
 * `<routing key> <event id>`, and ` <subject user id>` for events about a user. An event in two of the lists read
 * together (an administrator's organization change is in their own log and the organization's) is kept once.
 */
export function parseCausalEntries(entries: readonly string[]): CausalEvent[] {
  const seen = new Set<string>();
  return entries.flatMap((entry) => {
    const [type, id, subject] = entry.split(' ');
    if (!type || !id || seen.has(id)) return [];
    seen.add(id);
    return [subject ? { type, id, subject: Number(subject) } : { type, id }];
  });
}

/** The part of an ioredis client the log uses. */
export interface CausalRedis {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

const RECORD = `
redis.call('LPUSH', KEYS[1], unpack(ARGV, 3))
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
`;

const READ = `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('LRANGE', key, 0, -1) end
return out
`;

/**
 * Where an owning service records the events a user's request caused, before answering it; the gateway reads the
 * list into the identity token of that user's next requests (one round trip on each side).
 */
export class CausalLog {
  constructor(
    private readonly redis: CausalRedis,
    private readonly prefix: string,
  ) {}

  async record(userId: number, events: readonly CausalEvent[]): Promise<void> {
    await this.push(causalLogKey(this.prefix, userId), CAUSAL_LOG_LENGTH, CAUSAL_LOG_TTL_SECONDS, events);
  }

  /** Notes an organization's settings changes, which the gateway reads with every member's own log. */
  async recordRealm(realmId: number, events: readonly CausalEvent[]): Promise<void> {
    const key = causalRealmLogKey(this.prefix, realmId);
    await this.push(key, CAUSAL_REALM_LOG_LENGTH, CAUSAL_REALM_LOG_TTL_SECONDS, events);
  }

  private async push(key: string, length: number, ttl: number, events: readonly CausalEvent[]): Promise<void> {
    if (events.length === 0) return;
    const entries = events.map((event) =>
      event.subject === undefined ? `${event.type} ${event.id}` : `${event.type} ${event.id} ${event.subject}`,
    );
    await this.redis.eval(RECORD, 1, key, length, ttl, ...entries);
  }

  /** The recent events of these users (their own changes of the last minute), in one round trip. */
  async recent(userIds: readonly number[]): Promise<CausalEvent[]> {
    if (userIds.length === 0) return [];
    const keys = userIds.map((id) => causalLogKey(this.prefix, id));
    const lists = (await this.redis.eval(READ, keys.length, ...keys)) as string[][];
    return lists.flatMap((list) => parseCausalEntries(list));
  }
}

/** How long, and how many, events found applied by another replica the gate remembers (a causal log's lifetime). */
const SEEN_ELSEWHERE_MS = 60_000;
const SEEN_ELSEWHERE_MAX = 10_000;

export interface CausalGateOptions {
  bus: EventBus;
  /**
   * Which of these events the service's consumers have applied in another replica (consumer → event ids), from the
   * service's processed-events table; without it, only this process's own handling counts.
   */
  processedElsewhere?: (eventIds: readonly string[]) => Promise<{ consumer: string; eventId: string }[]>;
  /** How long a request may wait for its user's own events (ms). */
  timeoutMs: number;
}

export interface CausalOutcome {
  /** Every event is applied. */
  caughtUp: boolean;
  /** Some were applied by another replica: this process's caches of what they changed may be stale. */
  appliedElsewhere: boolean;
}

/**
 * The consuming side of read-your-writes: waits until every consumer of this process that binds a causal event's
 * type has handled it (here or in another replica), for at most the timeout.
 */
export function causalGate(options: CausalGateOptions): (events: readonly CausalEvent[]) => Promise<CausalOutcome> {
  const { bus } = options;
  const key = (p: { consumer: string; eventId: string }) => `${p.consumer} ${p.eventId}`;
  // What another replica was found to have applied, remembered for as long as a causal log may still name it: an
  // organization's change is carried by every member's requests, which would otherwise each ask the table again.
  const seenElsewhere = new Map<string, number>();
  const remember = (k: string, now: number) => {
    if (seenElsewhere.size >= SEEN_ELSEWHERE_MAX)
      for (const [old, until] of seenElsewhere)
        if (until <= now || seenElsewhere.size >= SEEN_ELSEWHERE_MAX) seenElsewhere.delete(old);
    seenElsewhere.set(k, now + SEEN_ELSEWHERE_MS);
  };
  const knownElsewhere = (p: { consumer: string; eventId: string }, now: number) =>
    (seenElsewhere.get(key(p)) ?? 0) > now;
  return async (events) => {
    let pending = bus.unhandled(events).filter((p) => !knownElsewhere(p, Date.now()));
    let appliedElsewhere = false;
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      if (pending.length > 0 && options.processedElsewhere) {
        const done = new Set((await options.processedElsewhere(pending.map((p) => p.eventId))).map(key));
        const remaining = pending.filter((p) => !done.has(key(p)));
        // Applied in the shared database without this process having handled it: another replica did.
        if (remaining.length < pending.length) {
          appliedElsewhere = true;
          const now = Date.now();
          for (const p of pending) if (done.has(key(p))) remember(key(p), now);
        }
        pending = remaining;
      }
      pending = pending.filter((p) => !bus.handled(p.consumer, p.eventId));
      const left = deadline - Date.now();
      if (pending.length === 0) return { caughtUp: true, appliedElsewhere };
      if (left <= 0) return { caughtUp: false, appliedElsewhere };
      await bus.nextHandled(Math.min(left, 100));
    }
  };
}
