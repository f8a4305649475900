import { ApiClient, type World } from '@confab/devkit';
import { expectError } from './support/expect';
import { allRoutes, concretePath, type ListedRoute } from './support/routes';
import { newWorld, system } from './support/system';

const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

describe('authentication on every route', () => {
  let routes: ListedRoute[];
  let world: World;
  beforeAll(async () => {
    routes = await allRoutes();
    world = await newWorld();
  });

  it('lists the routes of every service', () => {
    const services = new Set(routes.map((r) => r.service));
    for (const service of Object.keys(system().serviceUrls).filter((s) => s !== 'gateway'))
      expect(services).toContain(service);
    expect(routes.length).toBeGreaterThan(20);
  });

  it('answers 401 without credentials on every non-public route, through the gateway', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.auth !== 'public')) {
      if (route.path.includes('/external/')) {
        // Incoming webhook URLs authenticate as Zulip's webhook_view does: the bot's api_key, whose absence is
        // "Missing 'api_key' argument" (their other forms: tests/e2e/webhooks.e2e.spec.ts).
        const path = route.path.replace(/\{name:str\}/, 'helloworld');
        const response = await world.anonymous().request(route.method, path);
        const missing = route.method === 'HEAD' || response.body.msg === "Missing 'api_key' argument";
        if (response.status !== 400 || !missing)
          failures.push(`${route.method} ${path} → ${response.status} ${response.text.slice(0, 80)}`);
        continue;
      }
      const response = await world.anonymous().request(route.method, concretePath(route.path));
      if (response.status !== 401 || response.body.code !== 'UNAUTHORIZED' || response.body.msg !== NOT_LOGGED_IN) {
        failures.push(`${route.method} ${route.path} → ${response.status} ${response.text.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses every route called on a service directly, without the gateway', async () => {
    const iago = world.user('iago');
    const failures: string[] = [];
    for (const route of routes) {
      const direct = new ApiClient(system().serviceUrls[route.service]!).withCredentials(iago.email, iago.apiKey);
      const response = await direct.request(route.method, concretePath(route.path));
      if (response.status !== 401) failures.push(`${route.service} ${route.method} ${route.path} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('never routes /internal through the gateway', async () => {
    const raw = await fetch(`${system().gatewayUrl}/internal/routes`);
    expect(raw.status).toBe(404);
  });

  it('refuses identity tokens that are unsigned, signed with another key, or expired', async () => {
    const jwt = await import('jsonwebtoken');
    const claims = {
      typ: 'user',
      sub: String(world.user('iago').id),
      realm_id: world.realm.realm_id,
      role: 100,
      email: 'iago@zulip.com',
      is_bot: false,
    };
    const opts = { issuer: 'confab', audience: 'confab-internal' };
    const tokens = {
      none: jwt.default.sign(claims, '', { ...opts, algorithm: 'none' }),
      wrongKey: jwt.default.sign(claims, 'some-other-secret-of-enough-length', { ...opts, algorithm: 'HS256' }),
      expired: jwt.default.sign(claims, system().internalSecret, { ...opts, algorithm: 'HS256', expiresIn: -5 }),
    };
    // A token without an expiry is refused too: every identity token must expire.
    (tokens as Record<string, string>).noExpiry = jwt.default.sign(claims, system().internalSecret, {
      ...opts,
      algorithm: 'HS256',
    });
    for (const [name, token] of Object.entries(tokens)) {
      const response = await new ApiClient(system().serviceUrls.settings!).get(
        '/users/me',
        {},
        { headers: { 'x-confab-identity': token } },
      );
      expect({ name, status: response.status }).toEqual({ name, status: 401 });
    }
    const direct = await new ApiClient(system().serviceUrls.settings!).get(
      '/users/me',
      {},
      {
        headers: {
          'x-confab-identity': jwt.default.sign(claims, system().internalSecret, {
            ...opts,
            algorithm: 'HS256',
            expiresIn: 60,
          }),
        },
      },
    );
    expect(direct.status).toBe(200);
  });

  it('will not let a client smuggle its own identity token through the gateway', async () => {
    const jwt = await import('jsonwebtoken');
    const forged = jwt.default.sign(
      { typ: 'user', sub: '1', realm_id: 1, role: 100, email: 'x', is_bot: false },
      'guess',
      { algorithm: 'HS256' },
    );
    const response = await world.as('hamlet').get('/users/me', {}, { headers: { 'x-confab-identity': forged } });
    expect(response.body.user_id).toBe(world.user('hamlet').id);
    expectError(
      await world.anonymous().get('/users/me', {}, { headers: { 'x-confab-identity': forged } }),
      401,
      'UNAUTHORIZED',
      NOT_LOGGED_IN,
    );
  });
});
