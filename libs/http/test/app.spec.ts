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
