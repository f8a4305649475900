import {
  createWorld,
  privatePostgres,
  type ApiResponse,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { eventually, readiness, sleep, startFaultStack } from './stack';

/** One request of each service's, as a client makes them: the answers during an outage must all be clean 503s. */
function requestsOfEveryService(world: World, channelId: number): (() => Promise<ApiResponse>)[] {
  const hamlet = world.as('hamlet');
  const iago = world.as('iago');
  let n = 0;
  return [
    () => hamlet.get('/users/me'), // settings
    () => hamlet.post('/messages', { type: 'stream', to: String(channelId), topic: 'outage', content: `c ${n++}` }),
    () =>
      iago.post('/messages', { type: 'direct', to: JSON.stringify([world.user('hamlet').id]), content: `d ${n++}` }),
    () => hamlet.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 }), // messaging
    () => hamlet.get('/user_groups'), // groups
    () => iago.get('/invites'), // invitations
    () => hamlet.post('/register', { event_types: JSON.stringify(['message']) }), // events (asks the others)
  ];
}

describe('PostgreSQL restarted', () => {
  let pg: PrivateServer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  beforeAll(async () => {
    pg = await privatePostgres();
    ({ stack, info } = await startFaultStack({ postgresUrl: pg.url }));
    world = await createWorld(info);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: false });
    await pg?.destroy();
  });

  const databaseServices = () => Object.keys(info.databases);

  it('makes services report not ready, answers requests with a clean 503, and recovers by itself', async () => {
    expect((await world.as('hamlet').get('/users/me')).status).toBe(200);
    await pg.stop();
    for (const service of databaseServices()) {
      const state = await eventually(
        () => readiness(info.serviceUrls[service]!),
        (r) => r.status === 503,
        15_000,
      );
      expect({ service, database: state.checks.database }).toEqual({ service, database: false });
    }
    const during = await world.as('hamlet').get('/users/me');
    expect({ status: during.status, code: during.body.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });

    await pg.start();
    for (const service of databaseServices()) {
      await eventually(
        () => readiness(info.serviceUrls[service]!),
        (r) => r.status === 200,
        30_000,
      );
    }
    expect((await world.as('hamlet').get('/users/me')).status).toBe(200);
    // Writes and their events flow again: a new organization is created and known to every service.
    const fresh = await createWorld(info);
    expect((await fresh.as('iago').get('/user_groups')).status).toBe(200);
  }, 120_000);

  it('answers every request of every service with a fast 503 and Retry-After while PostgreSQL stops and is down, never a 500', async () => {
    const channelId = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const requests = requestsOfEveryService(world, channelId);
    const outcomes: { what: number; status: number; code?: string; retryAfter?: string; ms: number }[] = [];
    let running = true;
    // Two loops per request kind, so that requests are in flight when the server shuts down (57P01 mid-query).
    const loops = [...requests, ...requests].map(async (request, i) => {
      while (running) {
        const started = Date.now();
        const response = await request();
        outcomes.push({
          what: i % requests.length,
          status: response.status,
          code: response.body.code as string | undefined,
          retryAfter: response.headers['retry-after'],
          ms: Date.now() - started,
        });
      }
    });
    await eventually(
      async () => new Set(outcomes.filter((o) => o.status === 200).map((o) => o.what)).size,
      (n) => n === requests.length,
      30_000,
    );
    await pg.stop();
    const stoppedAt = outcomes.length;
    // Down for a while: every kind of request is answered at least a few times with PostgreSQL gone.
    await eventually(
      async () => {
        const down = outcomes.slice(stoppedAt);
        return requests.map((_, what) => down.filter((o) => o.what === what).length);
      },
      (counts) => counts.every((c) => c >= 3),
      30_000,
    );
    await pg.start();
    await sleep(500);
    running = false;
    await Promise.all(loops);

    const during = outcomes.slice(stoppedAt);
    const failures = outcomes.filter((o) => o.status !== 200);
    expect(failures.length).toBeGreaterThan(0);
    // What a client sees of the outage: Zulip's 503 with Retry-After, never an opaque 500 or another error.
    expect(
      failures.filter((o) => o.status !== 503 || o.code !== 'SERVICE_UNAVAILABLE' || o.retryAfter === undefined),
    ).toEqual([]);
    console.log(
      `PostgreSQL down: ${during.length} answers, the slowest ${Math.max(...during.map((o) => o.ms))} ms; ` +
        `${failures.length} failures, all 503`,
    );
    // Never a hang: a 503 is answered at once, not after a driver's connection timeout.
    expect(during.filter((o) => o.status === 503 && o.ms > 4000)).toEqual([]);

    // And everything works again afterwards.
    for (const request of requests)
      await eventually(
        async () => (await request()).status,
        (s) => s === 200,
        30_000,
      );
  }, 150_000);
});
