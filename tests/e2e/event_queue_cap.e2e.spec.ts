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
    // Long enough for the cap to be reached before the first of them expires on this busy machine.
    await fill(cordelia, CAP, 8);
    expectAtCap(await registerQueue(cordelia, 8));
    const deadline = Date.now() + 30_000;
    let response = await registerQueue(cordelia, 8);
    while (response.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      response = await registerQueue(cordelia, 8);
    }
    expect(response.status).toBe(200);
  }, 120_000);
});
