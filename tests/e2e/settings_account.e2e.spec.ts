import { DEV_PASSWORD, type World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { setRealmPolicies } from './support/internal';
import { newWorld } from './support/system';

describe('PATCH /settings full_name', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['user.updated']);
  });
  afterAll(() => tap.close());

  it('changes the name, trimmed, and announces the new user record', async () => {
    const hamlet = world.user('hamlet');
    expectSuccess(await world.as('hamlet').patch('/settings', { full_name: '  Prince Hamlet ' }), 'PATCH', '/settings');
    expect((await world.as('hamlet').get('/users/me')).body.full_name).toBe('Prince Hamlet');
    expect((await world.as('iago').get(`/users/${hamlet.id}`)).body.user.full_name).toBe('Prince Hamlet');
    const event = await tap.next((e) => e.payload.user.user_id === hamlet.id);
    expect(event.payload.user).toMatchObject({ full_name: 'Prince Hamlet', email: hamlet.email });
  });

  it.each([
    ['x', 'Name too short!'],
    ['   ', 'Name too short!'],
    ['a'.repeat(101), 'Name too long!'],
    ['Ham*let', 'Invalid characters in name!'],
    ['hamlet@denmark', 'Invalid characters in name!'],
  ])('refuses %j with %j', async (name, msg) => {
    expectError(await world.as('cordelia').patch('/settings', { full_name: name }), 400, 'BAD_REQUEST', msg);
    expect((await world.as('cordelia').get('/users/me')).body.full_name).toBe("Cordelia, Lear's daughter");
  });

  it('ignores the name silently when the organization disables name changes, except for administrators', async () => {
    const other = await newWorld();
    await setRealmPolicies(other.realm.realm_id, { name_changes_disabled: true });
    const response = await other.as('othello').patch('/settings', { full_name: 'Moor', color_scheme: 2 });
    expectSuccess(response, 'PATCH', '/settings');
    expect((await other.as('othello').get('/users/me')).body.full_name).toBe('Othello, the Moor of Venice');
    expectSuccess(await other.as('iago').patch('/settings', { full_name: 'Honest Iago' }), 'PATCH', '/settings');
    expect((await other.as('iago').get('/users/me')).body.full_name).toBe('Honest Iago');
  });
});

describe('PATCH /settings new_password', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const login = (w: World, name: 'hamlet' | 'othello' | 'prospero', password: string) =>
    w.anonymous().post('/fetch_api_key', { username: w.user(name).email, password });

  it('needs the old password', async () => {
    expectError(
      await world.as('hamlet').patch('/settings', { new_password: 'a perfectly good passphrase' }),
      400,
      'BAD_REQUEST',
      'Wrong password!',
    );
    expectError(
      await world
        .as('hamlet')
        .patch('/settings', { old_password: 'not-it', new_password: 'a perfectly good passphrase' }),
      400,
      'BAD_REQUEST',
      'Wrong password!',
    );
  });

  it('refuses weak passwords and keeps the old one', async () => {
    for (const weak of ['abc12', 'password', 'qwerty123']) {
      expectError(
        await world.as('prospero').patch('/settings', { old_password: DEV_PASSWORD, new_password: weak }),
        400,
        'BAD_REQUEST',
        'New password is too weak!',
      );
    }
    expect((await login(world, 'prospero', DEV_PASSWORD)).status).toBe(200);
  });

  it('changes the password: the new one logs in, the old one no longer does, API keys keep working', async () => {
    const response = await world
      .as('hamlet')
      .patch('/settings', { old_password: DEV_PASSWORD, new_password: 'Elsinore ramparts at midnight' });
    expectSuccess(response, 'PATCH', '/settings');
    expect((await login(world, 'hamlet', 'Elsinore ramparts at midnight')).status).toBe(200);
    expectError(
      await login(world, 'hamlet', DEV_PASSWORD),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expect((await world.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('counts wrong old passwords against the login limit', async () => {
    const attempt = () =>
      world.as('othello').patch('/settings', { old_password: 'guess', new_password: 'a perfectly good passphrase' });
    for (let i = 0; i < 5; i++) expectError(await attempt(), 400, 'BAD_REQUEST', 'Wrong password!');
    const limited = await attempt();
    expect(limited.status).toBe(400);
    expect(limited.body.msg).toMatch(/^You're making too many attempts! Try again in \d+ seconds\.$/);
    // The same budget guards logging in.
    expect((await login(world, 'othello', DEV_PASSWORD)).status).toBe(429);
  });
});
