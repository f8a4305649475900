import { ApiClient, type World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld, startExtraProcess, system } from './support/system';

describe('API conventions through the gateway', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('answers 404 for a path no service owns, without asking for credentials', async () => {
    const response = await world.anonymous().get('/no_such_endpoint');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ result: 'error', msg: 'Not Found' });
  });

  it('answers 405 with allowed_methods and an Allow header for a known path and another method', async () => {
    const response = await world.as('hamlet').request('PUT', '/users/me');
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'DELETE'] });
    expect(response.headers.allow).toBe('GET, DELETE');
  });

  it('reads parameters from the query string, form bodies and multipart bodies alike', async () => {
    const jwtless = { username: 'hamlet@zulip.com', password: 'confab-dev' };
    const form = await world.anonymous().post('/fetch_api_key', jwtless);
    const multipart = await world.anonymous().post('/fetch_api_key', jwtless, { encoding: 'multipart' });
    const query = await world.anonymous().post('/fetch_api_key', jwtless, { encoding: 'query' });
    expect([form.status, multipart.status, query.status]).toEqual([200, 200, 200]);
  });

  it('returns the request id it logged with', async () => {
    const response = await world.as('hamlet').get('/users/me');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('rate limiting', () => {
  let world: World;
  let limited: { process: { stop(): Promise<void> }; url: string };
  beforeAll(async () => {
    world = await newWorld();
    // A second gateway over the same system, with a limit small enough to reach in a test.
    limited = await startExtraProcess('gateway', {
      CONFAB_RATE_LIMIT_PER_MINUTE: '5',
      CONFAB_RATE_LIMIT_IP_PER_MINUTE: '3',
    });
  });
  afterAll(async () => {
    await limited.process.stop();
  });

  it('sends X-RateLimit headers and answers 429 RATE_LIMIT_HIT with retry-after past the limit', async () => {
    const hamlet = world.user('hamlet');
    const client = new ApiClient(limited.url, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    const first = await client.get('/users/me');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('5');
    expect(Number(first.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(4);
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    let last = first;
    for (let i = 0; i < 6; i++) last = await client.get('/users/me');
    expectError(last, 429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit');
    expect(last.body['retry-after']).toBeGreaterThan(0);
    expect(last.body['retry-after']).toBeLessThanOrEqual(60);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Another user has a budget of their own.
    const iago = world.user('iago');
    expect((await client.withCredentials(iago.email, iago.apiKey).get('/users/me')).status).toBe(200);
  });

  it('limits unauthenticated requests per client address', async () => {
    const client = new ApiClient(limited.url, { host: world.host, forwardedFor: '192.0.2.77' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await client.get('/server_settings')).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

describe('the system', () => {
  it('has every process ready', async () => {
    for (const [service, url] of Object.entries(system().serviceUrls)) {
      const response = await fetch(`${url}/readyz`);
      expect({ service, status: response.status }).toEqual({ service, status: 200 });
    }
  });
});

describe('metrics', () => {
  it('counts requests by route template and reports outbox lag on every service', async () => {
    const world = await newWorld();
    await world.as('hamlet').get('/users/me');
    const text = await (await fetch(`${system().metricsUrls.settings}/metrics`)).text();
    expect(text).toMatch(
      /http_requests_total\{method="GET",route="\/users\/me",status="200",service="settings"\} [1-9]/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.05",service="settings",method="GET",route="\/users\/me"\} \d/,
    );
    expect(text).toMatch(/outbox_lag_seconds\{service="settings"\} \d/);
    expect(text).toMatch(/events_published_total\{routing_key="user\.created",service="settings"\} [1-9]/);
  });

  it('serves the gateway metrics on their own port, not through the public one', async () => {
    const text = await (await fetch(`${system().metricsUrls.gateway}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="settings",status="200",service="gateway"\} [1-9]/);
    expect((await fetch(`${system().gatewayUrl}/metrics`)).status).toBe(404);
  });
});
