import type { ApiClient, ApiResponse } from '@confab/devkit';
import { redisSettings } from '@confab/config';
import { connectRedis, type RedisClient } from '@confab/runtime';
import { waitHandled } from './events';
import { expectSuccess } from './expect';
import { eventSchemaErrors, openApiErrors } from './openapi';
import { system } from './system';

export type ClientEvent = Record<string, any> & { id: number; type: string };

/** Fields Zulip sends that its OpenAPI description (feature level ~420) does not list. */
const UNDESCRIBED_FIELDS: Record<string, string[]> = { message: ['local_message_id'] };
/** Event types the description does not have at all (docs/api.md's neutral names; feature level 468's device). */
const UNDESCRIBED_TYPES = new Set(['has_meetingprovider_token', 'device']);

/**
 * Initial-state fields newer than the description (docs/api.md's meeting provider; feature level 468's client
 * devices; a newer personal setting).
 */
const NEWER_STATE = ['has_meetingprovider_token', 'meeting_provider', 'devices'];
const NEWER_USER_SETTINGS = ['web_inbox_show_channel_folders'];

/** A successful POST /register that conforms to Zulip's description, apart from the fields listed above. */
export function expectRegistration(response: ApiResponse): void {
  expect({ status: response.status, result: response.body.result, msg: response.body.msg }).toEqual({
    status: 200,
    result: 'success',
    msg: '',
  });
  const body: Record<string, any> = { ...response.body };
  for (const key of NEWER_STATE) delete body[key];
  if (body.user_settings) {
    body.user_settings = { ...body.user_settings };
    for (const key of NEWER_USER_SETTINGS) delete body.user_settings[key];
  }
  expect(openApiErrors('POST', '/register', 200, body)).toEqual([]);
}

/** Checks one event against Zulip's description of its type. */
export function expectZulipEvent(event: ClientEvent): void {
  const copy: Record<string, unknown> = { ...event };
  for (const field of UNDESCRIBED_FIELDS[event.type] ?? []) delete copy[field];
  const errors = eventSchemaErrors(copy);
  if (errors === null) {
    expect(UNDESCRIBED_TYPES.has(event.type) ? event.type : `undescribed event ${event.type}`).toBe(event.type);
    return;
  }
  expect(errors).toEqual([]);
}

const eventsKey = (kind: 'q' | 'u', id: string | number) => `${system().redisPrefix}:{events}:${kind}:${id}`;
/** A client of the system's Redis, a single server or a Redis Cluster (CONFAB_LOCAL_REDIS_CLUSTER=1). */
const systemRedis = () =>
  connectRedis(redisSettings(system().redisUrl, ''), { lazyConnect: true, maxRetriesPerRequest: 1 });

/**
 * Polls the events service's queue records in Redis until `ready` answers a value (every 10 ms, failing after
 * `timeoutMs`): how tests wait for "a poll is waiting" instead of pausing for a fixed time.
 */
async function untilInRedis<T>(
  what: string,
  ready: (redis: RedisClient) => Promise<T | null>,
  timeoutMs: number,
): Promise<T> {
  const redis = systemRedis();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await ready(redis);
      if (value !== null) return value;
      if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    redis.disconnect();
  }
}

/** The waiting mark (poll generation) of a queue, when a poll of it is waiting on the server. */
async function waitingMark(redis: RedisClient, queueId: string): Promise<number> {
  return Number((await redis.hget(eventsKey('q', queueId), 'w')) ?? 0);
}

/**
 * Resolves with the id of a queue of the user, not among `known`, that a poll is waiting on: a client outside the
 * test (zulip-js in a child process) has registered and is listening.
 */
export function untilNewQueueWaiting(userId: number, known: readonly string[] = [], timeoutMs = 20_000) {
  return untilInRedis(
    `no new queue of user ${userId} was polled`,
    async (redis) => {
      for (const id of await redis.smembers(eventsKey('u', userId)))
        if (!known.includes(id) && (await waitingMark(redis, id)) > 0) return id;
      return null;
    },
    timeoutMs,
  );
}

/** The user's queues now (to tell a new one from them). */
export async function queuesOf(userId: number): Promise<string[]> {
  const redis = systemRedis();
  try {
    return await redis.smembers(eventsKey('u', userId));
  } finally {
    redis.disconnect();
  }
}

/** A registered queue and the client that owns it, polled the way Zulip's clients do. */
export class EventQueue {
  lastEventId: number;
  readonly seen: ClientEvent[] = [];

  constructor(
    readonly client: ApiClient,
    readonly queueId: string,
    readonly registration: Record<string, any>,
  ) {
    this.lastEventId = registration.last_event_id as number;
  }

  static async register(client: ApiClient, params: Record<string, unknown> = {}): Promise<EventQueue> {
    const response = await client.post('/register', params);
    expectRegistration(response);
    return new EventQueue(client, response.body.queue_id as string, response.body);
  }

  get(params: Record<string, unknown>): Promise<ApiResponse> {
    return this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId, ...params });
  }

  /** One GET /events (blocking unless dont_block), acknowledging everything seen so far. */
  async poll(dontBlock = false): Promise<ClientEvent[]> {
    const response = await this.get({ dont_block: dontBlock });
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 200,
      body: { result: 'success' },
    });
    const events = response.body.events as ClientEvent[];
    for (const event of events) {
      expectZulipEvent(event);
      this.lastEventId = Math.max(this.lastEventId, event.id);
    }
    this.seen.push(...events);
    return events;
  }

  /** Polls until an event matching `match` has arrived (heartbeats and other events are kept in `seen`). */
  async next(match: (event: ClientEvent) => boolean = (e) => e.type !== 'heartbeat'): Promise<ClientEvent> {
    for (;;) {
      const found = this.seen.find(match);
      if (found) return found;
      await this.poll();
    }
  }

  /**
   * Resolves once a poll of this queue is waiting on the server (the events service marks the queue in Redis when
   * a poll starts to wait): what a test that orders "poll waits, then something happens" waits for, instead of a
   * fixed pause. `generation` is the waiting poll's, to tell a newer poll from an older one.
   */
  untilWaiting(after = 0, timeoutMs = 10_000): Promise<number> {
    return untilInRedis(
      `no poll of queue ${this.queueId} waited`,
      async (redis) => {
        const mark = await waitingMark(redis, this.queueId);
        return mark > after ? mark : null;
      },
      timeoutMs,
    );
  }

  /** Resolves once no poll of this queue is waiting on the server (the waiting one ended). */
  untilNotWaiting(timeoutMs = 10_000): Promise<true> {
    return untilInRedis(
      `a poll of queue ${this.queueId} still waits`,
      async (redis) => ((await waitingMark(redis, this.queueId)) === 0 ? true : null),
      timeoutMs,
    );
  }

  /** Everything the queue holds right now, without waiting. */
  async drain(): Promise<ClientEvent[]> {
    const before = this.seen.length;
    await this.poll(true);
    return this.seen.slice(before);
  }

  async delete(): Promise<void> {
    const response = await this.client.delete('/events', { queue_id: this.queueId });
    expectSuccess(response, 'DELETE', '/events');
  }
}

/** Waits until the events service has handled a published event (then every queue has it or never will). */
export function handledByEvents(eventId: string, eventsUrl = system().serviceUrls.events!): Promise<void> {
  return waitHandled(eventsUrl, eventId, 10_000);
}
