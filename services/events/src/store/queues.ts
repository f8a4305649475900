import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@confab/runtime';
import type { QueueDescriptor } from '../domain/descriptor.js';
import { wantsAllPublicStreams } from '../domain/descriptor.js';
import { APPEND, CREATE, DELETE, END_WAIT, POLL, READ_ENDING } from './scripts.js';

/** An event as stored: its queue-local id and its JSON (without the id). */
export interface StoredEvent {
  id: number;
  json: string;
}

export type PollResult =
  | { status: 'ok'; generation: number; previousWaiter: number | null; events: StoredEvent[] }
  | { status: 'bad' | 'pruned' | 'notin' };

type ScriptRedis = RedisClient & {
  confabAppend(...args: (string | number)[]): Promise<(string[] | number)[]>;
  confabPoll(...args: (string | number)[]): Promise<(string | number)[]>;
  confabEndWait(...args: (string | number)[]): Promise<number>;
  confabReadEnding(...args: (string | number)[]): Promise<string[]>;
  confabDelete(...args: (string | number)[]): Promise<number>;
  confabCreate(...args: (string | number)[]): Promise<[number, number]>;
};

/** A queue made, or the user's cap reached (with how long until their soonest queue expires, if known). */
export type CreateResult = { queueId: string } | { full: true; retryAfterMs: number | null };

function parseEntries(flat: readonly (string | number)[], from: number): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let i = from; i + 1 < flat.length; i += 2) {
    events.push({ id: Number.parseInt(String(flat[i]), 10), json: String(flat[i + 1]) });
  }
  return events;
}

/**
 * Event queues in Redis, shared by every replica: a descriptor hash and an event stream per queue (both expiring
 * after the idle timeout), and indexes from users and realms to their queues.
 */
export class QueueStore {
  private readonly redis: ScriptRedis;
  /** The channel wake-up notices go out on (see Wakeups). */
  readonly wakeChannel: string;

  constructor(
    redis: RedisClient,
    /** Key prefix with the store's hash tag, e.g. `confab:{events}:` (see scripts.ts). */
    readonly prefix: string,
    private readonly timeoutMs: number,
  ) {
    this.wakeChannel = `${prefix}wake`;
    this.redis = redis as ScriptRedis;
    if (!('confabAppend' in redis)) {
      redis.defineCommand('confabAppend', { numberOfKeys: 1, lua: APPEND });
      redis.defineCommand('confabPoll', { numberOfKeys: 1, lua: POLL });
      redis.defineCommand('confabEndWait', { numberOfKeys: 1, lua: END_WAIT });
      redis.defineCommand('confabReadEnding', { numberOfKeys: 1, lua: READ_ENDING });
      redis.defineCommand('confabDelete', { numberOfKeys: 1, lua: DELETE });
      redis.defineCommand('confabCreate', { numberOfKeys: 1, lua: CREATE });
    }
  }

  /** The indexes live a little longer than any queue in them; stale members are dropped when met. */
  private get indexTtlMs(): number {
    return this.timeoutMs + 60_000;
  }

  key(kind: 'q' | 'u' | 'r' | 'rall' | 'done', id: string | number): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /** Creates a queue and indexes it under its user and realm. */
  async create(descriptor: QueueDescriptor): Promise<string> {
    const created = await this.createCapped(descriptor, 0);
    if (!('queueId' in created)) throw new Error('an uncapped queue was refused');
    return created.queueId;
  }

  /** Creates a queue unless its user already holds `maxPerUser` live ones (0: no cap). */
  async createCapped(descriptor: QueueDescriptor, maxPerUser: number): Promise<CreateResult> {
    const id = randomUUID();
    const ttl = descriptor.idleTimeoutMs ?? this.timeoutMs;
    const indexTtl = Math.max(this.indexTtlMs, ttl + 60_000);
    const [created, soonest] = await this.redis.confabCreate(
      this.prefix,
      id,
      descriptor.userId,
      descriptor.realmId,
      JSON.stringify(descriptor),
      ttl,
      indexTtl,
      wantsAllPublicStreams(descriptor) ? '1' : '0',
      maxPerUser,
    );
    if (Number(created) === 1) return { queueId: id };
    return { full: true, retryAfterMs: Number(soonest) >= 0 ? Number(soonest) : null };
  }

  async poll(queueId: string, userId: number, lastEventId: number | null, markWaiting: boolean): Promise<PollResult> {
    const raw = await this.redis.confabPoll(
      this.prefix,
      queueId,
      userId,
      lastEventId === null ? '' : lastEventId,
      this.timeoutMs,
      markWaiting ? '1' : '0',
      this.indexTtlMs,
    );
    const status = String(raw[0]);
    if (status !== 'ok') return { status: status as 'bad' | 'pruned' | 'notin' };
    const previous = String(raw[2]);
    return {
      status: 'ok',
      generation: Number(raw[1]),
      previousWaiter: previous === '' ? null : Number(previous),
      events: parseEntries(raw, 3),
    };
  }

  /** The events a queue holds now (after a wake-up), without acknowledging anything. */
  async read(queueId: string): Promise<StoredEvent[]> {
    const entries = await this.redis.xrange(`${this.key('q', queueId)}:ev`, '-', '+');
    return entries.map(([entryId, fields]) => ({ id: Number.parseInt(entryId, 10), json: fields[1] ?? '{}' }));
  }

  /**
   * A woken poll's events; when it answers with them (or `ending`: it answers anyway), its wait ends in the same
   * step. Whether it ended is `ended` of the answer; `gone` when the queue no longer exists.
   */
  async readEnding(
    queueId: string,
    generation: number,
    ending: boolean,
  ): Promise<{ gone: true } | { gone: false; events: StoredEvent[]; ended: boolean }> {
    const flat = await this.redis.confabReadEnding(this.prefix, queueId, generation, ending ? '1' : '0');
    if (flat[0] !== 'ok') return { gone: true };
    const events = parseEntries(flat, 1);
    return { gone: false, events, ended: ending || events.length > 0 };
  }

  endWait(queueId: string, generation: number): Promise<number> {
    return this.redis.confabEndWait(this.prefix, queueId, generation);
  }

  async delete(queueId: string, userId: number): Promise<boolean> {
    return (await this.redis.confabDelete(this.prefix, queueId, userId)) === 1;
  }

  /**
   * Appends to each listed queue that still exists, in one atomic step that also announces them to waiting polls;
   * with a dedupe key the whole fan-out happens at most once. Returns the queues that received something, or null
   * for an already-handled event.
   */
  async append(
    deliveries: readonly (readonly [queueId: string, json: string])[],
    dedupe?: { eventId: string; ttlSeconds: number },
  ): Promise<string[] | null> {
    const [result] = await this.appendBatch([{ eventId: dedupe?.eventId, pairs: deliveries }], dedupe?.ttlSeconds ?? 0);
    return result ?? null;
  }

  /**
   * Appends the events of several broker events in one atomic step (one round trip, one wake-up notice): per broker
   * event, the queue ids it reached, or null when it had been delivered before (its id is the de-duplication key).
   */
  async appendBatch(
    batch: readonly { eventId?: string; pairs: readonly (readonly [queueId: string, json: string])[] }[],
    ttlSeconds: number,
  ): Promise<(string[] | null)[]> {
    const args: (string | number)[] = [this.prefix, ttlSeconds, this.wakeChannel];
    for (const { eventId, pairs } of batch) {
      // Each distinct text once, and each queue with the index of its own (APPEND's ARGV).
      const indexes = new Map<string, number>();
      const refs: (string | number)[] = [];
      for (const [queueId, json] of pairs) {
        let index = indexes.get(json);
        if (index === undefined) indexes.set(json, (index = indexes.size + 1));
        refs.push(queueId, index);
      }
      args.push(eventId ? this.key('done', eventId) : '', indexes.size, ...indexes.keys(), pairs.length);
      for (const ref of refs) args.push(ref);
    }
    const results = await this.redis.confabAppend(...args);
    return results.map((r) => (r === -1 ? null : (r as string[])));
  }

  async isHandled(eventId: string): Promise<boolean> {
    return (await this.redis.exists(this.key('done', eventId))) === 1;
  }

  /**
   * The queues indexed under these users and realms, in one round trip: the queue ids of each user, of each realm (`realms`) or of each realm's queues that follow all public channels (`publicRealms`).
   */
  async indexes(want: {
    users: readonly number[];
    realms: readonly number[];
    publicRealms: readonly number[];
  }): Promise<{ users: Map<number, string[]>; realms: Map<number, string[]>; publicRealms: Map<number, string[]> }> {
    const out = {
      users: new Map<number, string[]>(),
      realms: new Map<number, string[]>(),
      publicRealms: new Map<number, string[]>(),
    };
    const total = want.users.length + want.realms.length + want.publicRealms.length;
    if (total === 0) return out;
    const pipeline = this.redis.pipeline();
    for (const userId of want.users) pipeline.smembers(this.key('u', userId));
    for (const realmId of want.realms) pipeline.smembers(this.key('r', realmId));
    for (const realmId of want.publicRealms) pipeline.smembers(this.key('rall', realmId));
    const results = (await pipeline.exec()) ?? [];
    results.forEach(([err, members], i) => {
      if (err) throw err;
      const ids = members as string[];
      if (i < want.users.length) {
        out.users.set(want.users[i]!, ids);
      } else if (i < want.users.length + want.realms.length) {
        out.realms.set(want.realms[i - want.users.length]!, ids);
      } else {
        out.publicRealms.set(want.publicRealms[i - want.users.length - want.realms.length]!, ids);
      }
    });
    return out;
  }

  /** Descriptors of these queues (absent for expired ones). */
  async descriptors(queueIds: readonly string[]): Promise<Map<string, QueueDescriptor>> {
    const out = new Map<string, QueueDescriptor>();
    if (queueIds.length === 0) return out;
    const pipeline = this.redis.pipeline();
    for (const queueId of queueIds) pipeline.hget(this.key('q', queueId), 'd');
    const results = (await pipeline.exec()) ?? [];
    results.forEach(([err, raw], i) => {
      if (err) throw err;
      if (typeof raw === 'string') out.set(queueIds[i]!, JSON.parse(raw) as QueueDescriptor);
    });
    return out;
  }

  /** Drops expired queue ids from the user and realm indexes they were found in. */
  async forget(stale: readonly { queueId: string; userId?: number; realmId?: number }[]): Promise<void> {
    if (stale.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const { queueId, userId, realmId } of stale) {
      if (userId !== undefined) pipeline.srem(this.key('u', userId), queueId);
      if (realmId !== undefined)
        pipeline.srem(this.key('r', realmId), queueId).srem(this.key('rall', realmId), queueId);
    }
    await pipeline.exec();
  }
}
