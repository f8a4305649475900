import { randomBytes } from 'node:crypto';
import { ApiClient, DEV_PASSWORD, type ApiResponse, type World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld, startExtraProcess } from './support/system';

const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

interface Browser {
  client: ApiClient;
  /** Cookie header value the browser would send. */
  cookie: string;
  csrf: string;
  login: ApiResponse;
}

function setCookies(response: ApiResponse): string[] {
  const header = response.headers['set-cookie'];
  return Array.isArray(header) ? header : header ? [header] : [];
}

function cookieHeader(response: ApiResponse): string {
  return setCookies(response)
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function signIn(client: ApiClient, username: string, password = DEV_PASSWORD): Promise<Browser> {
  const login = await client.post('/accounts/login', { username, password });
  expect(login.status).toBe(200);
  return { client, cookie: cookieHeader(login), csrf: login.body.csrf_token as string, login };
}

function get(b: Browser, path: string, params = {}) {
  return b.client.get(`/json${path}`, params, { headers: { cookie: b.cookie } });
}

function patch(b: Browser, path: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return b.client.patch(`/json${path}`, params, {
    headers: { cookie: b.cookie, 'x-csrftoken': b.csrf, ...headers },
  });
}

/** Waits (by asking again) until a request answers 401. */
async function until401(request: () => Promise<ApiResponse>, timeoutMs = 15_000): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request();
    if (response.status === 401 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('browser sessions (POST /accounts/login, /json/*, POST /accounts/logout)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('signs in with email and password: HttpOnly SameSite=Strict session cookie, CSRF token, /json works', async () => {
    const b = await signIn(world.anonymous(), 'hamlet@zulip.com');
    expect(b.login.body).toEqual({
      result: 'success',
      msg: '',
      email: 'hamlet@zulip.com',
      user_id: world.user('hamlet').id,
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const [session, csrf] = setCookies(b.login);
    expect(session).toMatch(/^confab_session=[A-Za-z0-9_-]{43}; HttpOnly; Path=\/; SameSite=Strict; Max-Age=\d+$/);
    expect(csrf).toBe(
      `confab_csrftoken=${b.csrf}; Path=/; SameSite=Strict; Max-Age=${/Max-Age=(\d+)/.exec(session!)![1]}`,
    );
    const me = await get(b, '/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user_id: world.user('hamlet').id, email: 'hamlet@zulip.com' });
    // The same per-user rate limit as Basic authentication.
    const basic = await world.as('hamlet').get('/users/me');
    expect(me.headers['x-ratelimit-limit']).toBe(basic.headers['x-ratelimit-limit']);
  });

  it('marks the cookies Secure when the request came over https', async () => {
    const login = await world
      .anonymous()
      .post(
        '/accounts/login',
        { username: 'cordelia@zulip.com', password: DEV_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    expect(login.status).toBe(200);
    for (const cookie of setCookies(login)) expect(cookie).toMatch(/; Secure$/);
  });

  it("refuses a wrong password with the settings service's error and sets no cookie", async () => {
    const login = await world.anonymous().post('/accounts/login', { username: 'othello@zulip.com', password: 'wrong' });
    expectError(login, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(setCookies(login)).toEqual([]);
    const json = await world.anonymous().post('/accounts/login', { username: 'othello@zulip.com' });
    expectError(json, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", { var_name: 'password' });
  });

  it('answers 401 on /json without a cookie, with a forged or malformed one', async () => {
    const anonymous = world.anonymous();
    const none = await anonymous.get('/json/users/me');
    expectError(none, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    // No Basic challenge: a browser would open its own password prompt and hold the page's request.
    expect(none.headers['www-authenticate']).toBeUndefined();
    for (const cookie of [
      `confab_session=${randomBytes(32).toString('base64url')}`,
      'confab_session=not-a-session',
      'confab_session=',
      'other=1',
    ]) {
      const response = await anonymous.get('/json/users/me', {}, { headers: { cookie } });
      expectError(response, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    }
    // Basic credentials do not open /json (it is the session twin of /api/v1).
    const basic = await world.as('iago').get('/json/users/me');
    expectError(basic, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
  });

  it('refuses state-changing requests without the CSRF token, with a wrong one, or from another site', async () => {
    const b = await signIn(world.anonymous(), 'iago@zulip.com');
    const missing = await b.client.patch('/json/settings', { full_name: 'Mallory' }, { headers: { cookie: b.cookie } });
    expectError(missing, 403, 'CSRF_FAILED', 'CSRF error: CSRF token missing.');
    const wrong = await patch(b, '/settings', { full_name: 'Mallory' }, { 'x-csrftoken': 'x'.repeat(43) });
    expectError(wrong, 403, 'CSRF_FAILED', 'CSRF error: CSRF token incorrect.');
    const crossSite = await patch(b, '/settings', { full_name: 'Mallory' }, { origin: 'https://evil.example' });
    expectError(
      crossSite,
      403,
      'CSRF_FAILED',
      'CSRF error: Origin checking failed - https://evil.example does not match any trusted origins.',
    );
    expect((await get(b, '/users/me')).body.full_name).not.toBe('Mallory');

    const host = world.anonymous().options.host ?? new URL(world.anonymous().baseUrl).host;
    const ok = await patch(b, '/settings', { full_name: 'Iago Session' }, { origin: `http://${host}` });
    expect(ok.status).toBe(200);
    expect((await get(b, '/users/me')).body.full_name).toBe('Iago Session');
  });

  it('refuses a sign-in posted from another site', async () => {
    const login = await world
      .anonymous()
      .post(
        '/accounts/login',
        { username: 'iago@zulip.com', password: DEV_PASSWORD },
        { headers: { origin: 'https://evil.example' } },
      );
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('CSRF_FAILED');
    expect(setCookies(login)).toEqual([]);
  });

  it('logout ends the session and clears the cookies; logging out again is 401', async () => {
    const b = await signIn(world.anonymous(), 'desdemona@zulip.com');
    const other = await signIn(world.anonymous(), 'desdemona@zulip.com');
    const noToken = await b.client.post('/accounts/logout', {}, { headers: { cookie: b.cookie } });
    expectError(noToken, 403, 'CSRF_FAILED', 'CSRF error: CSRF token missing.');
    const out = await b.client.post('/accounts/logout', {}, { headers: { cookie: b.cookie, 'x-csrftoken': b.csrf } });
    expect(out.status).toBe(200);
    for (const cookie of setCookies(out)) expect(cookie).toMatch(/=; .*Max-Age=0/);
    expectError(await get(b, '/users/me'), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    const again = await b.client.post('/accounts/logout', {}, { headers: { cookie: b.cookie, 'x-csrftoken': b.csrf } });
    expectError(again, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    // Another sign-in of the same user is a session of its own.
    expect((await get(other, '/users/me')).status).toBe(200);
  });

  it("a password change ends the user's sessions at once (read-your-writes), the new password signs in", async () => {
    const b = await signIn(world.anonymous(), 'prospero@zulip.com');
    const newPassword = 'Elsinore ramparts at midnight';
    const changed = await world
      .as('prospero')
      .patch('/settings', { old_password: DEV_PASSWORD, new_password: newPassword });
    expect(changed.status).toBe(200);
    // No waiting: the change is in prospero's causal log, which the next request through the gateway reads.
    expectError(await get(b, '/users/me'), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    const again = await signIn(world.anonymous(), 'prospero@zulip.com', newPassword);
    expect((await get(again, '/users/me')).status).toBe(200);
  });

  it("deactivation ends the user's sessions", async () => {
    const b = await signIn(world.anonymous(), 'aaron@zulip.com');
    expect((await get(b, '/users/me')).status).toBe(200);
    expect((await world.as('iago').delete(`/users/${world.user('aaron').id}`)).status).toBe(200);
    const after = await until401(() => get(b, '/users/me'));
    expect(after.status).toBe(401);
  });

  it('a session expires', async () => {
    const gateway = await startExtraProcess('gateway', { CONFAB_SESSION_TTL_SECONDS: '1' });
    try {
      const client = new ApiClient(gateway.url, world.anonymous().options);
      const b = await signIn(client, 'cordelia@zulip.com');
      expect(setCookies(b.login)[0]).toMatch(/Max-Age=1(;|$)/);
      const expired = await until401(() => get(b, '/users/me'), 10_000);
      expectError(expired, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    } finally {
      await gateway.process.stop();
    }
  });
});
