import type { ApiClient, ApiResponse, World } from '@confab/devkit';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Event queues per user are capped (issue 30, finding 6): the default cap of the events service (100 live queues).
const CAP = 100;

/** A queue with no initial state, idle for at most `idleSeconds` before it expires. */
function registerQueue(client: ApiClient, idleSeconds: number): Promise<ApiResponse> {
  return client.post('/register', {
    event_types: ['heartbeat'],
    fetch_event_types: [],
    idle_queue_timeout: String(idleSeconds),
  });
}

async function fill(client: ApiClient, count: number, idleSeconds: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () => registerQueue(client, idleSeconds)),
    );
    for (const response of batch) {
      expect(response.status).toBe(200);
      ids.push(response.body.queue_id as string);
    }
  }
  return ids;
}

function expectAtCap(response: ApiResponse): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(
    expect.objectContaining({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' }),
  );
  expect(response.body['retry-after']).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('event queues per user', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('refuses a queue beyond the cap (POST /register and GET /events) until one is deleted', async () => {
    const hamlet = world.as('hamlet');
    const ids = await fill(hamlet, CAP, 600);
    expectAtCap(await registerQueue(hamlet, 600));
    expectAtCap(await hamlet.get('/events', { dont_block: true }));
    // Another user is not affected.
    expectSuccess(await registerQueue(world.as('othello'), 600), 'POST', '/register');
    // Deleting one frees its place at once.
    expectSuccess(await hamlet.delete('/events', { queue_id: ids[0] }), 'DELETE', '/events');
    const again = await registerQueue(hamlet, 600);
    expect(again.status).toBe(200);
    expectAtCap(await registerQueue(hamlet, 600));
  }, 120_000);

  it('lets idle queues expire, which frees their places', async () => {
    const cordelia = world.as('cordelia');
    // All but one live long; the last is idle for 10 s at most, so the cap is reached however long filling took.
    await fill(cordelia, CAP - 1, 600);
    expect((await registerQueue(cordelia, 10)).status).toBe(200);
    const full = await registerQueue(cordelia, 10);
    expectAtCap(full);
    // Retry-After tells when the soonest queue expires: the short one.
    expect(full.body['retry-after']).toBeLessThanOrEqual(10);
    const deadline = Date.now() + 40_000;
    let response = await registerQueue(cordelia, 600);
    while (response.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      response = await registerQueue(cordelia, 600);
    }
    expect(response.status).toBe(200);
    expectAtCap(await registerQueue(cordelia, 600));
  }, 120_000);
});
