import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('GET /users/me', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("answers exactly docs/api.md's own-user record", async () => {
    const response = await world.as('iago').get('/users/me');
    expectSuccess(response, 'GET', '/users/me');
    const iago = world.user('iago');
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      user_id: iago.id,
      email: 'iago@zulip.com',
      delivery_email: 'iago@zulip.com',
      full_name: 'Iago',
      avatar_url: expect.stringMatching(
        /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/,
      ),
      avatar_version: 1,
      is_admin: true,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      is_active: true,
      is_imported_stub: false,
      role: 200,
      timezone: '',
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/),
      max_message_id: expect.any(Number),
      profile_data: {},
    });
  });

  it('reports each role the way Zulip does', async () => {
    const roles = {
      desdemona: [100, true, true, false],
      shiva: [300, false, false, false],
      hamlet: [400, false, false, false],
      polonius: [600, false, false, true],
    } as const;
    for (const [name, [role, isAdmin, isOwner, isGuest]] of Object.entries(roles)) {
      const body = (await world.as(name as keyof typeof roles).get('/users/me')).body;
      expect({ role: body.role, is_admin: body.is_admin, is_owner: body.is_owner, is_guest: body.is_guest }).toEqual({
        role,
        is_admin: isAdmin,
        is_owner: isOwner,
        is_guest: isGuest,
      });
    }
  });

  it('omits profile_data for bots', async () => {
    const response = await world.as('default-bot').get('/users/me');
    expectSuccess(response, 'GET', '/users/me');
    expect(response.body.is_bot).toBe(true);
    expect(response.body).not.toHaveProperty('profile_data');
  });

  it('lists unknown parameters in ignored_parameters_unsupported', async () => {
    const response = await world.as('hamlet').get('/users/me', { zzz: 1, aaa: 'x' });
    expect(response.body.ignored_parameters_unsupported).toEqual(['aaa', 'zzz']);
  });
});

describe('GET /users and GET /users/{user_id}', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('lists every user of the organization with Zulip user objects', async () => {
    const response = await world.as('hamlet').get('/users');
    expectSuccess(response, 'GET', '/users');
    const emails = (response.body.members as { email: string }[]).map((m) => m.email).sort();
    expect(emails).toEqual(
      Object.values(world.users)
        .map((u) => u.email)
        .sort(),
    );
    const bot = (response.body.members as Record<string, unknown>[]).find((m) => m.email === 'default-bot@zulip.com')!;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: world.user('iago').id });
    // client_gravatar defaults to true: the client computes Gravatar URLs itself.
    expect(bot.avatar_url).toBeNull();
  });

  it('filters by user_ids and returns avatar URLs without client_gravatar', async () => {
    const ids = [world.user('iago').id, world.user('cordelia').id];
    const response = await world.as('hamlet').get('/users', { user_ids: ids, client_gravatar: false });
    expectSuccess(response, 'GET', '/users');
    expect((response.body.members as { user_id: number }[]).map((m) => m.user_id).sort()).toEqual(ids.sort());
    expect((response.body.members as { avatar_url: string }[])[0]!.avatar_url).toMatch(/^https:/);
  });

  it('returns one user by id or by email, and "No such user" otherwise', async () => {
    const cordelia = world.user('cordelia');
    const byId = await world.as('hamlet').get(`/users/${cordelia.id}`);
    expectSuccess(byId, 'GET', `/users/${cordelia.id}`);
    expect(byId.body.user).toMatchObject({ user_id: cordelia.id, full_name: "Cordelia, Lear's daughter" });
    const byEmail = await world.as('hamlet').get('/users/cordelia@zulip.com');
    expect(byEmail.body.user.user_id).toBe(cordelia.id);
    expectError(await world.as('hamlet').get('/users/999999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await world.as('hamlet').get('/users/99999999999999999999'), 400, 'BAD_REQUEST', 'No such user');
  });

  it('does not show users of another organization', async () => {
    const other = await newWorld();
    expectError(await world.as('hamlet').get(`/users/${other.user('iago').id}`), 400, 'BAD_REQUEST', 'No such user');
  });
});

describe('DELETE /users/{user_id}', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('is for administrators only', async () => {
    const response = await world.as('hamlet').delete(`/users/${world.user('cordelia').id}`);
    expectError(response, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });

  it('will not deactivate the only owner', async () => {
    const response = await world.as('desdemona').delete('/users/me');
    expectError(response, 400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner');
  });

  it('deactivates, shows the user inactive, and reactivates', async () => {
    const prospero = world.user('prospero');
    expectSuccess(await world.as('iago').delete(`/users/${prospero.id}`), 'DELETE', '/users/{user_id}');
    expect((await world.as('hamlet').get(`/users/${prospero.id}`)).body.user.is_active).toBe(false);
    expectError(
      await world.as('iago').delete(`/users/${world.user('desdemona').id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectSuccess(
      await world.as('iago').post(`/users/${prospero.id}/reactivate`),
      'POST',
      '/users/{user_id}/reactivate',
    );
    expect((await world.as('hamlet').get(`/users/${prospero.id}`)).body.user.is_active).toBe(true);
  });
});

describe('GET /users/me max_message_id', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  async function maxMessageId(name: 'hamlet' | 'othello' | 'polonius' | 'iago'): Promise<number> {
    const response = await world.as(name).get('/users/me');
    expectSuccess(response, 'GET', '/users/me');
    return response.body.max_message_id as number;
  }

  it('follows the messages each user receives, sent by them or to them', async () => {
    const channel = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'max id',
      content: 'to the channel',
    });
    expectSuccess(channel, 'POST', '/messages');
    const channelId = channel.body.id as number;
    // Sender and subscribers receive it (on their very next request); Polonius (a guest) is not subscribed to Denmark.
    expect(await maxMessageId('hamlet')).toBe(channelId);
    expect(await maxMessageId('othello')).toBe(channelId);
    expect(await maxMessageId('polonius')).toBeLessThan(channelId);

    const dm = await world.as('iago').post('/messages', {
      type: 'direct',
      to: [world.user('othello').id],
      content: 'just for you',
    });
    expectSuccess(dm, 'POST', '/messages');
    const dmId = dm.body.id as number;
    expect(await maxMessageId('iago')).toBe(dmId);
    expect(await maxMessageId('othello')).toBe(dmId);
    expect(await maxMessageId('hamlet')).toBe(channelId);
  });
});

describe('PATCH /users/{user_id}', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });
  const role = async (name: 'hamlet' | 'othello' | 'iago' | 'desdemona') =>
    (await world.as('iago').get(`/users/${world.user(name).id}`)).body.user.role as number;

  it('lets administrators change roles and names, as Zulip does', async () => {
    const hamlet = world.user('hamlet').id;
    expectSuccess(
      await world.as('iago').patch(`/users/${hamlet}`, { role: 300, full_name: '  Prince Hamlet ' }),
      'PATCH',
      `/users/${hamlet}`,
    );
    expect(await role('hamlet')).toBe(300);
    expect((await world.as('othello').get(`/users/${hamlet}`)).body.user.full_name).toBe('Prince Hamlet');
    expectSuccess(await world.as('iago').patch(`/users/${hamlet}`, { role: 400 }), 'PATCH', `/users/${hamlet}`);
    expect(await role('hamlet')).toBe(400);
  });

  it("refuses members, ownership changes by administrators, the only owner's demotion and unknown roles", async () => {
    const othello = world.user('othello').id;
    const desdemona = world.user('desdemona').id;
    expectError(
      await world.as('hamlet').patch(`/users/${othello}`, { role: 200 }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('iago').patch(`/users/${othello}`, { role: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await world.as('iago').patch(`/users/${desdemona}`, { role: 200 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await world.as('desdemona').patch(`/users/${desdemona}`, { role: 200 }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expectError(await world.as('iago').patch(`/users/${othello}`, { role: 500 }), 400, 'BAD_REQUEST', 'Invalid role');
    expectError(await world.as('iago').patch('/users/999999', { role: 400 }), 400, 'BAD_REQUEST', 'No such user');
    expect(await role('othello')).toBe(400);
    expect(await role('desdemona')).toBe(100);
  });
});
