import { createHttpApp, initialStateRoute, listen, ServiceClient, type RunningServer } from '@confab/http';
import { IdentityVerifier, signIdentity, type CausalEvent } from '@confab/identity';
import { createLogger } from '@confab/logging';

const SECRET = 'test-secret-at-least-16-chars';

/**
 * Read-your-writes across an internal call: the events service gathers a register's state from the owning services
 * for a user, naming the user's own recent events; each owning service answers only once it has applied them (or
 * 503 when it could not in time), as for the user's own request. Only a signed service identity is believed.
 */
describe('a service call made for a user waits for their events', () => {
  let server: RunningServer;
  let base: string;
  const asked: { userId: number; realmId: number; causal: readonly CausalEvent[] }[] = [];
  let caughtUp = true;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      verifier: new IdentityVerifier(SECRET),
      routes: [],
      internalRoutes: [initialStateRoute({}, (userId) => Promise.resolve({ for_user: userId }))],
      readiness: () => Promise.resolve({}),
      causal: {
        caughtUp: (who) => {
          asked.push(who);
          return Promise.resolve(caughtUp);
        },
      },
    });
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    asked.length = 0;
    caughtUp = true;
  });

  const client = () => new ServiceClient({ caller: 'events', baseUrl: base, secret: SECRET });
  const events = [{ type: 'user.deactivated', id: '0b6a6f4e-3c1f-4d5e-9a55-2f0f8a1d2c3b' }];

  it('passes the user and their events to the service, which answers once it has applied them', async () => {
    const answer = await client().request('GET', '/users/7/initial-state', {
      causal: { userId: 7, realmId: 2, events },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.for_user).toBe(7);
    expect(asked).toEqual([{ userId: 7, realmId: 2, causal: events }]);
  });

  it('answers 503 when the service has not applied them in time', async () => {
    caughtUp = false;
    const answer = await client().request('GET', '/users/7/initial-state', {
      causal: { userId: 7, realmId: 2, events },
    });
    expect(answer.status).toBe(503);
  });

  it('asks nothing for a call without events', async () => {
    expect((await client().request('GET', '/users/7/initial-state')).status).toBe(200);
    expect(asked).toEqual([]);
  });

  it('believes the header from no user: internal routes refuse a user identity, header or not', async () => {
    const identity = signIdentity(
      { kind: 'user', userId: 9, realmId: 2, role: 400, email: 'u@x.test', isBot: false },
      SECRET,
    );
    const forged = JSON.stringify({ u: 7, r: 2, e: [['user.deactivated', events[0]!.id]] });
    const response = await fetch(`${base}/internal/users/9/initial-state`, {
      headers: { 'x-confab-identity': identity, 'x-confab-causal': forged },
    });
    expect(response.status).toBe(401);
    expect(asked).toEqual([]);
  });
});
