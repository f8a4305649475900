import type { CausalEvent } from '@confab/identity';
import type { EventBus } from './bus.js';

/** How many of a user's latest events the log keeps, and for how long after their last write (seconds). */
export const CAUSAL_LOG_LENGTH = 8;
export const CAUSAL_LOG_TTL_SECONDS = 60;

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

/** `<routing key> <event id>`, and ` <subject user id>` for events about a user. */
export function parseCausalEntries(entries: readonly string[]): CausalEvent[] {
  return entries.flatMap((entry) => {
    const [type, id, subject] = entry.split(' ');
    if (!type || !id) return [];
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
    if (events.length === 0) return;
    const entries = events.map((event) =>
      event.subject === undefined ? `${event.type} ${event.id}` : `${event.type} ${event.id} ${event.subject}`,
    );
    await this.redis.eval(
      RECORD,
      1,
      causalLogKey(this.prefix, userId),
      CAUSAL_LOG_LENGTH,
      CAUSAL_LOG_TTL_SECONDS,
      ...entries,
    );
  }

  /** The recent events of these users (their own changes of the last minute), in one round trip. */
  async recent(userIds: readonly number[]): Promise<CausalEvent[]> {
    if (userIds.length === 0) return [];
    const keys = userIds.map((id) => causalLogKey(this.prefix, id));
    const lists = (await this.redis.eval(READ, keys.length, ...keys)) as string[][];
    return lists.flatMap((list) => parseCausalEntries(list));
  }
}

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
  return async (events) => {
    let pending = bus.unhandled(events);
    let appliedElsewhere = false;
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      if (pending.length > 0 && options.processedElsewhere) {
        const key = (p: { consumer: string; eventId: string }) => `${p.consumer} ${p.eventId}`;
        const done = new Set((await options.processedElsewhere(pending.map((p) => p.eventId))).map(key));
        const remaining = pending.filter((p) => !done.has(key(p)));
        // Applied in the shared database without this process having handled it: another replica did.
        if (remaining.length < pending.length) appliedElsewhere = true;
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
