import jwt from 'jsonwebtoken';
import { DEV_JWT_KEY, DEV_PASSWORD, type World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('POST /fetch_api_key', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('returns a working API key, the email and the user id', async () => {
    const response = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'iago@zulip.com', password: DEV_PASSWORD });
    expectSuccess(response, 'POST', '/fetch_api_key');
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: 'iago@zulip.com',
      user_id: world.user('iago').id,
    });
    const me = await world
      .anonymous()
      .withCredentials('iago@zulip.com', response.body.api_key as string)
      .get('/users/me');
    expect(me.body.user_id).toBe(world.user('iago').id);
  });

  it('refuses a wrong password with 401 AUTHENTICATION_FAILED', async () => {
    const response = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'hamlet@zulip.com', password: 'wrong' });
    expectError(response, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  });

  it('refuses an unknown user the same way', async () => {
    const response = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'nobody@zulip.com', password: DEV_PASSWORD });
    expectError(response, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  });

  it('refuses a username that is not an email address', async () => {
    expectError(
      await world.anonymous().post('/fetch_api_key', { username: 'iago', password: 'x' }),
      400,
      'BAD_REQUEST',
      'Enter a valid email address.',
    );
  });

  it("reports a missing parameter with Zulip's code", async () => {
    const response = await world.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com' });
    expectError(response, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", { var_name: 'password' });
  });

  it('answers 401 USER_DEACTIVATED for a deactivated account', async () => {
    await world.as('iago').delete(`/users/${world.user('aaron').id}`);
    const response = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'aaron@zulip.com', password: DEV_PASSWORD });
    expectError(response, 401, 'USER_DEACTIVATED', 'Account is deactivated');
  });

  it('answers 429 after repeated failures for one username, and still lets others in', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await world.anonymous().post('/fetch_api_key', { username: 'prospero@zulip.com', password: `bad${i}` });
      expect(r.status).toBe(401);
    }
    const limited = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'prospero@zulip.com', password: DEV_PASSWORD });
    expectError(limited, 429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit');
    expect(limited.body['retry-after']).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'cordelia@zulip.com', password: DEV_PASSWORD });
    expect(other.status).toBe(200);
  });
});

describe('POST /dev_fetch_api_key (development servers)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("returns any account's one key by its address, without a password, as Zulip's development login", async () => {
    const response = await world.anonymous().post('/dev_fetch_api_key', { username: 'hamlet@zulip.com' });
    expectSuccess(response, 'POST', '/dev_fetch_api_key');
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: 'hamlet@zulip.com',
      user_id: world.user('hamlet').id,
    });
    // The same key fetch_api_key hands out: one key per user.
    const byPassword = await world
      .anonymous()
      .post('/fetch_api_key', { username: 'hamlet@zulip.com', password: DEV_PASSWORD });
    expect(byPassword.body.api_key).toBe(response.body.api_key);
    const me = await world
      .anonymous()
      .withCredentials('hamlet@zulip.com', response.body.api_key as string)
      .get('/users/me');
    expect(me.body.user_id).toBe(world.user('hamlet').id);
  });

  it("refuses unknown and deactivated accounts with Zulip's errors", async () => {
    expectError(
      await world.anonymous().post('/dev_fetch_api_key', { username: 'nobody@zulip.com' }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expectError(
      await world.anonymous().post('/dev_fetch_api_key', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument",
      { var_name: 'username' },
    );
    await world.as('iago').delete(`/users/${world.user('prospero').id}`);
    expectError(
      await world.anonymous().post('/dev_fetch_api_key', { username: 'prospero@zulip.com' }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });
});

describe('POST /jwt/fetch_api_key', () => {
  let world: World;
  let noJwtWorld: World;
  beforeAll(async () => {
    world = await newWorld();
    noJwtWorld = await newWorld({ jwtKey: null });
  });
  const sign = (claims: object, key = DEV_JWT_KEY, options: jwt.SignOptions = {}) =>
    jwt.sign(claims, key, { algorithm: 'HS256', ...options });

  it('returns a key for the email in a token signed with the organization key', async () => {
    const response = await world.anonymous().post('/jwt/fetch_api_key', { token: sign({ email: 'hamlet@zulip.com' }) });
    expectSuccess(response, 'POST', '/jwt/fetch_api_key', { undocumented: true });
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: 'hamlet@zulip.com',
    });
  });

  it('adds the user object when include_profile is true', async () => {
    const response = await world
      .anonymous()
      .post('/jwt/fetch_api_key', { token: sign({ email: 'shiva@zulip.com' }), include_profile: true });
    expectSuccess(response, 'POST', '/jwt/fetch_api_key', { undocumented: true });
    const shiva = world.user('shiva');
    expect(response.body.user).toEqual({
      user_id: shiva.id,
      delivery_email: 'shiva@zulip.com',
      email: 'shiva@zulip.com',
      full_name: shiva.fullName,
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/),
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      role: 300,
      timezone: '',
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
      avatar_version: 1,
      is_imported_stub: false,
    });
  });

  it('refuses bad tokens with Zulip messages', async () => {
    const post = (params: Record<string, unknown>) => world.anonymous().post('/jwt/fetch_api_key', params);
    expectError(await post({}), 400, 'BAD_REQUEST', 'No JSON web token passed in request');
    expectError(await post({ token: 'garbage' }), 400, 'BAD_REQUEST', 'Bad JSON web token');
    expectError(
      await post({ token: sign({ email: 'hamlet@zulip.com' }, 'another-key-entirely') }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    expectError(
      await post({ token: sign({ email: 'hamlet@zulip.com' }, DEV_JWT_KEY, { expiresIn: -10 }) }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"email":"hamlet@zulip.com"}').toString('base64url')}.`;
    expectError(await post({ token: none }), 400, 'BAD_REQUEST', 'Bad JSON web token');
    expectError(
      await post({ token: sign({ name: 'x' }) }),
      400,
      'BAD_REQUEST',
      'No email specified in JSON web token claims',
    );
    expectError(
      await post({ token: sign({ email: 'nobody@zulip.com' }) }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expectError(
      await post({ token: sign({ email: 'hamlet@zulip.com' }), include_profile: 'yes' }),
      400,
      'BAD_REQUEST',
      'include_profile is not valid JSON',
    );
  });

  it('is refused where JWT authentication is not enabled', async () => {
    const response = await noJwtWorld
      .anonymous()
      .post('/jwt/fetch_api_key', { token: sign({ email: 'hamlet@zulip.com' }) });
    expectError(response, 400, 'BAD_REQUEST', 'JWT authentication is not enabled for this organization');
  });
});
