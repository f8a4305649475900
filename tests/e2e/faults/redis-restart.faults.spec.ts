import { Redis } from 'ioredis';
import {
  ApiClient,
  createWorld,
  privateRedis,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { LEAD_SECONDS, ScheduledProbe, untilPast } from './scheduled';
import { eventually, startFaultStack } from './stack';

/**
 * Redis restarting empty (this private Redis keeps no data across a restart), or down for a while: event queues are
 * gone and clients are told so at once, requests get a fast 503, and scheduled delivery goes on from the database,
 * each message once, never before its time.
 */
describe('Redis restarted (and emptied)', () => {
  let redis: PrivateServer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;
  let client: ApiClient;
  let probe: ScheduledProbe;

  beforeAll(async () => {
    redis = await privateRedis();
    // The sweep is far off: what re-creates the lost timers is the worker noticing Redis came back.
    ({ stack, info } = await startFaultStack({ redisUrl: redis.url }, { MESSAGING_SCHEDULED_SWEEP_SECONDS: '600' }));
    world = await createWorld(info);
    const hamlet = world.user('hamlet');
    client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    probe = new ScheduledProbe(client, (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id);
  }, 180_000);

  afterAll(async () => {
    // Drops the run's databases (on the shared PostgreSQL) and its exchanges; then the private Redis goes.
    await stack?.stop({ cleanUp: true });
    await redis?.destroy();
  });

  /** Whether a long poll is waiting on the queue (the mark its poll script sets in Redis). */
  async function waiting(queueId: string): Promise<boolean> {
    const direct = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await direct.connect();
      return (await direct.hget(`${info.redisPrefix}:{events}:q:${queueId}`, 'w')) !== null;
    } catch {
      return false;
    } finally {
      direct.disconnect();
    }
  }

  it('answers a long poll waiting on a queue Redis lost with BAD_EVENT_QUEUE_ID at once; the client registers again', async () => {
    const registration = await client.post('/register', { event_types: JSON.stringify(['message']) });
    expect(registration.status).toBe(200);
    const queueId = registration.body.queue_id as string;
    const poll = client.get('/events', { queue_id: queueId, last_event_id: registration.body.last_event_id });
    await eventually(
      () => waiting(queueId),
      (w) => w,
      15_000,
    );
    await redis.restart();
    // Not a heartbeat's empty answer 45–55 s later: the queue is gone, and the waiting client learns it now. While
    // Redis is still coming back the poll may answer 503 instead; a Zulip client polls again on a 503, and that poll
    // must be told the queue is gone (no heartbeat wait either way).
    let answer = await poll;
    if (answer.status === 503) {
      answer = await eventually(
        () => client.get('/events', { queue_id: queueId, last_event_id: registration.body.last_event_id }),
        (r) => r.status !== 503,
        30_000,
      );
    }
    expect({ status: answer.status, code: answer.body.code, queue_id: answer.body.queue_id }).toEqual({
      status: 400,
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: queueId,
    });

    // As Zulip's clients do: register again, and the new queue gets the next message.
    const again = await eventually(
      () => client.post('/register', { event_types: JSON.stringify(['message']) }),
      (r) => r.status === 200,
      30_000,
    );
    const sent = await world
      .as('iago')
      .post('/messages', { type: 'direct', to: JSON.stringify([world.user('hamlet').id]), content: 'after the loss' });
    expect(sent.status).toBe(200);
    const events = await client.get('/events', {
      queue_id: again.body.queue_id,
      last_event_id: again.body.last_event_id,
    });
    expect(events.status).toBe(200);
    expect((events.body.events as { type: string; message?: { id: number } }[]).map((e) => e.message?.id)).toContain(
      sent.body.id,
    );
  }, 120_000);

  it('answers a fast 503 with Retry-After while Redis is down, never a 500, and serves again once it is back', async () => {
    const iago = world.as('iago');
    const send = () =>
      iago.post('/messages', { type: 'direct', to: JSON.stringify([world.user('hamlet').id]), content: 'redis down' });
    expect((await send()).status).toBe(200);
    await redis.stop();
    const outcomes: { status: number; code?: string; retryAfter?: string; ms: number }[] = [];
    for (const request of [send, () => client.get('/users/me'), () => client.get('/messages', { anchor: 'newest' })]) {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const response = await request();
        outcomes.push({
          status: response.status,
          code: response.body.code as string | undefined,
          retryAfter: response.headers['retry-after'],
          ms: Date.now() - started,
        });
      }
    }
    await redis.start();
    console.log(
      `Redis down: the slowest of ${outcomes.length} answers took ${Math.max(...outcomes.map((o) => o.ms))} ms`,
    );
    expect(outcomes.map(({ status, code, retryAfter }) => ({ status, code, retryAfter }))).toEqual(
      outcomes.map(() => ({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '1' })),
    );
    // Never a hang: the gateway does not wait out the Redis client's reconnection attempts per request.
    expect(outcomes.filter((o) => o.ms > 4000)).toEqual([]);
    await eventually(
      async () => (await send()).status,
      (s) => s === 200,
      30_000,
    );
  }, 120_000);

  it('delivers messages that fell due while Redis was down, once each, from the database, never early', async () => {
    const due = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    // Due over four consecutive seconds: a delivery must not take along what is due a second later.
    const dueAt = (i: number) => due + (i % 4);
    const contents = await probe.scheduleAll('redis down', dueAt, 20);
    await redis.stop();
    await untilPast(due, 3000);
    await redis.start();
    await probe.expectEachOnce('redis down', contents);
    await probe.expectNoneEarly('redis down', dueAt);
  }, 120_000);

  it('delivers messages whose timers Redis lost in a restart before they were due, on time, never early', async () => {
    const due = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    const dueAt = (i: number) => due + (i % 4);
    const contents = await probe.scheduleAll('redis lost', dueAt, 20);
    await redis.restart();
    // Well before the sweep (600 s): the worker rebuilt the timers when Redis came back.
    await probe.expectEachOnce('redis lost', contents);
    await probe.expectNoneEarly('redis lost', dueAt);
  }, 120_000);
});
