import { DEV_PASSWORD, type ApiResponse, type World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';

// One API key per user, as in Zulip (issue 30): fetching hands out the same key, regenerating replaces it and the old
// key fails on the very next request (the gateway caches verified keys).

function cookieHeader(response: ApiResponse): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  return cookies.map((c) => c.split(';')[0]!).join('; ');
}

async function fetchKey(world: World, username: string): Promise<string> {
  const response = await world.anonymous().post('/fetch_api_key', { username, password: DEV_PASSWORD });
  expect(response.status).toBe(200);
  return response.body.api_key as string;
}

describe('one API key per user', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const withKey = (email: string, key: string) => world.anonymous().withCredentials(email, key);

  it('POST /fetch_api_key answers the key the user already holds, every time', async () => {
    const hamlet = world.user('hamlet');
    expect(await fetchKey(world, hamlet.email)).toBe(hamlet.apiKey);
    expect(await fetchKey(world, hamlet.email)).toBe(hamlet.apiKey);
  });

  it('a browser sign-in uses the same key and makes no new one', async () => {
    const othello = world.user('othello');
    const login = await world.anonymous().post('/accounts/login', { username: othello.email, password: DEV_PASSWORD });
    expect(login.status).toBe(200);
    const session = await world.anonymous().get('/json/users/me', {}, { headers: { cookie: cookieHeader(login) } });
    expect(session.body.user_id).toBe(othello.id);
    expect(await fetchKey(world, othello.email)).toBe(othello.apiKey);
  });

  describe('POST /users/me/api_key/regenerate', () => {
    it('gives a new key; the old one fails on the next request, the new one works', async () => {
      const cordelia = world.user('cordelia');
      const old = withKey(cordelia.email, cordelia.apiKey);
      // Warm the gateway's cache of the old key.
      expect((await old.get('/users/me')).status).toBe(200);
      const answer = await old.post('/users/me/api_key/regenerate');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ result: 'success', msg: '', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
      const fresh = answer.body.api_key as string;
      expect(fresh).not.toBe(cordelia.apiKey);
      expectError(await old.get('/users/me'), 401, 'UNAUTHORIZED', 'Invalid API key');
      const me = await withKey(cordelia.email, fresh).get('/users/me');
      expect(me.body.user_id).toBe(cordelia.id);
      expect(await fetchKey(world, cordelia.email)).toBe(fresh);
    });

    it('ends browser sessions, which run on the key', async () => {
      const prospero = world.user('prospero');
      const login = await world.anonymous().post('/accounts/login', {
        username: prospero.email,
        password: DEV_PASSWORD,
      });
      const cookie = cookieHeader(login);
      expect((await world.anonymous().get('/json/users/me', {}, { headers: { cookie } })).status).toBe(200);
      expect((await withKey(prospero.email, prospero.apiKey).post('/users/me/api_key/regenerate')).status).toBe(200);
      const deadline = Date.now() + 15_000;
      let status = 200;
      while (Date.now() < deadline && status !== 401) {
        status = (await world.anonymous().get('/json/users/me', {}, { headers: { cookie } })).status;
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
    });

    it('is refused to a bot, as in Zulip (human users only)', async () => {
      const bot = world.user('default-bot');
      const response = await withKey(bot.email, bot.apiKey).post('/users/me/api_key/regenerate');
      expect(response.status).toBe(400);
      expect(response.body.result).toBe('error');
      expect((await withKey(bot.email, bot.apiKey).get('/users/me')).status).toBe(200);
    });
  });

  it('a password change keeps the key working (Zulip keeps it)', async () => {
    const aaron = world.user('aaron');
    const client = withKey(aaron.email, aaron.apiKey);
    const changed = await client.patch('/settings', {
      old_password: DEV_PASSWORD,
      new_password: 'a much Stronger passw0rd!',
    });
    expect(changed.status).toBe(200);
    expect((await client.get('/users/me')).status).toBe(200);
  });

  describe('POST /bots/{bot_id}/api_key/regenerate', () => {
    it('refuses someone who neither owns the bot nor administers the organization', async () => {
      const bot = world.user('default-bot');
      expectError(
        await world.as('hamlet').post(`/bots/${bot.id}/api_key/regenerate`),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
      expect((await withKey(bot.email, bot.apiKey).get('/users/me')).status).toBe(200);
    });

    it('refuses an id that is not a bot', async () => {
      expectError(
        await world.as('iago').post(`/bots/${world.user('hamlet').id}/api_key/regenerate`),
        400,
        'BAD_REQUEST',
        'No such bot',
      );
      expectError(await world.as('iago').post('/bots/0/api_key/regenerate'), 400, 'BAD_REQUEST', 'No such bot');
    });

    it('gives the bot a new key (by its owner, then by an administrator); the old one fails at once', async () => {
      const bot = world.user('default-bot');
      let key = bot.apiKey;
      for (const who of ['iago', 'desdemona'] as const) {
        const old = withKey(bot.email, key);
        expect((await old.get('/users/me')).status).toBe(200);
        const answer = await world.as(who).post(`/bots/${bot.id}/api_key/regenerate`);
        expect(answer.status).toBe(200);
        const fresh = answer.body.api_key as string;
        expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
        expect(fresh).not.toBe(key);
        expectError(await old.get('/users/me'), 401, 'UNAUTHORIZED', 'Invalid API key');
        expect((await withKey(bot.email, fresh).get('/users/me')).body.user_id).toBe(bot.id);
        key = fresh;
      }
    });
  });
});
