import { createHttpApp, listen, p, RawResponse, route, type RunningServer } from '@confab/http';
import { IdentityVerifier, signIdentity } from '@confab/identity';
import { createLogger } from '@confab/logging';

const SECRET = 'test-secret-at-least-16-chars';

describe('createHttpApp pageRoutes', () => {
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      verifier: new IdentityVerifier(SECRET),
      routes: [route({ method: 'GET', path: '/things', auth: 'public', handler: () => ({ things: [] }) })],
      pageRoutes: [
        route({
          method: 'GET',
          path: '/accounts/confirm/{key:str}',
          auth: 'public',
          params: { lang: p.string().optional() },
          handler: ({ path, params }) =>
            new RawResponse(200, `key=${path.key} lang=${params.lang ?? ''}`, { 'Content-Type': 'text/html' }),
        }),
      ],
      readiness: () => Promise.resolve({}),
    });
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());

  const anonymous = () => ({ 'x-confab-identity': signIdentity({ kind: 'anonymous' }, SECRET) });

  it('serves page routes at the root, with path and query parameters', async () => {
    const response = await fetch(`${base}/accounts/confirm/abc?lang=de`, { headers: anonymous() });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('key=abc lang=de');
  });

  it('still requires the identity token on pages', async () => {
    const response = await fetch(`${base}/accounts/confirm/abc`);
    expect(response.status).toBe(401);
  });

  it('keeps API routes under /api/v1 only', async () => {
    expect((await fetch(`${base}/api/v1/things`, { headers: anonymous() })).status).toBe(200);
    expect((await fetch(`${base}/things`, { headers: anonymous() })).status).toBe(404);
  });
});

describe('createHttpApp routes without express', () => {
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      verifier: new IdentityVerifier(SECRET),
      routes: [
        route({
          method: 'GET',
          path: '/things/{id:int}',
          auth: 'public',
          params: { kind: p.string().optional() },
          handler: ({ path, params }) => ({ id: path.id, kind: params.kind ?? null }),
        }),
        route({
          method: 'GET',
          path: '/raw',
          auth: 'public',
          handler: ({ ignored }) =>
            new RawResponse(200, JSON.stringify({ ignored: ignored() }), { 'Content-Type': 'application/json' }),
        }),
        route({
          method: 'POST',
          path: '/fail',
          auth: 'public',
          handler: () => {
            throw new Error('boom');
          },
        }),
      ],
      readiness: () => Promise.resolve({ fine: true }),
    });
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());

  const anonymous = () => ({ 'x-confab-identity': signIdentity({ kind: 'anonymous' }, SECRET) });

  it('answers the success envelope with its headers, the caller request id and the ignored parameters', async () => {
    const response = await fetch(`${base}/api/v1/things/7?kind=a&extra=1`, {
      headers: { ...anonymous(), 'x-request-id': 'req-1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      id: 7,
      kind: 'a',
      ignored_parameters_unsupported: ['extra'],
    });
  });

  it('writes a raw answer with a utf-8 charset, and lists the parameters the route does not take', async () => {
    const response = await fetch(`${base}/api/v1/raw?b=1&a=2`, { headers: anonymous() });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ ignored: ['a', 'b'] });
  });

  it('answers errors, 405s, 404s and health as before', async () => {
    const failed = await fetch(`${base}/api/v1/fail`, { method: 'POST', headers: anonymous() });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ result: 'error', msg: 'Internal server error' });
    const unauthenticated = await fetch(`${base}/api/v1/things/7`);
    expect(unauthenticated.status).toBe(401);
    const wrongMethod = await fetch(`${base}/api/v1/things/7`, { method: 'DELETE', headers: anonymous() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expect((await fetch(`${base}/api/v1/nothing`, { headers: anonymous() })).status).toBe(404);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', checks: { fine: true } });
  });
});
