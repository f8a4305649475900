import { ApiClient, type World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

describe('gateway authentication', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const raw = (authorization?: string) =>
    world.anonymous().get('/users/me', {}, { headers: authorization === undefined ? {} : { authorization } });

  it('answers 401 with the Basic challenge when no credentials are sent', async () => {
    const response = await raw();
    expectError(response, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    expect(response.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('answers 400 for another authorization scheme', async () => {
    expectError(await raw('Bearer abc'), 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
  });

  it('answers 401 for a header that is not base64 or has no colon', async () => {
    for (const header of ['Basic %%%', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      const response = await raw(header);
      expectError(response, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth');
      expect(response.headers['www-authenticate']).toBe('Basic realm="zulip"');
    }
  });

  it('answers 401 for a malformed key, an unknown key and a key of someone else', async () => {
    const iago = world.user('iago');
    const hamlet = world.user('hamlet');
    const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
    expectError(await raw(basic(iago.email, 'short')), 401, 'UNAUTHORIZED', 'Malformed API key');
    expectError(await raw(basic(iago.email, 'A'.repeat(32))), 401, 'UNAUTHORIZED', 'Invalid API key');
    expectError(await raw(basic(iago.email, hamlet.apiKey)), 401, 'UNAUTHORIZED', 'Invalid API key');
  });

  it('accepts the email in any case and surrounding whitespace', async () => {
    const iago = world.user('iago');
    const response = await raw(`Basic ${Buffer.from(` IAGO@zulip.com : ${iago.apiKey} `).toString('base64')}`);
    expectSuccess(response, 'GET', '/users/me');
    expect(response.body.user_id).toBe(iago.id);
  });

  it('answers 401 "Account is deactivated" once a user is deactivated, and accepts them again after reactivation', async () => {
    const admin = world.as('iago');
    const othello = world.as('othello');
    expectSuccess(await othello.get('/users/me'), 'GET', '/users/me'); // now cached by the gateway
    expectSuccess(await admin.delete(`/users/${world.user('othello').id}`), 'DELETE', '/users/{user_id}');
    // The gateway drops its cached credentials when it hears user.deactivated.
    let response = await othello.get('/users/me');
    for (let i = 0; i < 100 && response.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      response = await othello.get('/users/me');
    }
    expectError(response, 401, 'UNAUTHORIZED', 'Account is deactivated');
    expectSuccess(
      await admin.post(`/users/${world.user('othello').id}/reactivate`),
      'POST',
      '/users/{user_id}/reactivate',
    );
    let back = await othello.get('/users/me');
    for (let i = 0; i < 100 && back.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      back = await othello.get('/users/me');
    }
    expect(back.status).toBe(200);
  });

  it('lets nothing reach a service without the gateway: a direct call is refused', async () => {
    const settingsUrl = system().serviceUrls.settings!;
    const direct = new ApiClient(settingsUrl).withCredentials(world.user('iago').email, world.user('iago').apiKey);
    expectError(await direct.get('/users/me'), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    const forged = await direct.get('/users/me', {}, { headers: { 'x-confab-identity': 'eyJhbGciOiJub25lIn0.e30.' } });
    expectError(forged, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
  });
});
