import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Measured: about 20 s on the 2-core machine (one organization for the file).
jest.setTimeout(90_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const notAdmin = 'Must be an organization administrator';

describe('/bots', () => {
  it('a member creates a generic bot; it works, is listed, and its owner and administrators hear of it', async () => {
    const owner = await EventQueue.register(world.as('hamlet'), { event_types: ['realm_bot'] });
    const admin = await EventQueue.register(world.as('iago'), { event_types: ['realm_bot'] });
    const other = await EventQueue.register(world.as('othello'), { event_types: ['realm_bot', 'realm_user'] });
    const created = await world.as('hamlet').post('/bots', { full_name: 'Helper Bot', short_name: 'helper' });
    expect(created.status).toBe(200);
    const botId = created.body.user_id as number;
    const apiKey = created.body.api_key as string;
    expect(apiKey).toMatch(/^\w{32}$/);
    const added = await owner.next((e) => e.type === 'realm_bot' && e.op === 'add');
    expect(added.bot).toMatchObject({
      user_id: botId,
      full_name: 'Helper Bot',
      bot_type: 1,
      owner_id: world.user('hamlet').id,
    });
    await admin.next((e) => e.type === 'realm_bot' && e.op === 'add');
    await other.next((e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === botId);
    expect(other.seen.filter((e) => e.type === 'realm_bot')).toEqual([]);

    const email = added.bot.email as string;
    expect(email).toMatch(/^helper-bot@/);
    const bot = world.anonymous().withCredentials(email, apiKey);
    const me = await bot.get('/users/me');
    expect(me.body).toMatchObject({ user_id: botId, is_bot: true });

    const listed = await world.as('hamlet').get('/bots');
    // The owner (and administrators) see the bot's key, as in Zulip's bot settings.
    expect(listed.body.bots).toEqual([
      expect.objectContaining({ username: email, full_name: 'Helper Bot', api_key: apiKey }),
    ]);
    expect((await world.as('othello').get('/bots')).body.bots).toEqual([]);
    const state = await world.as('iago').post('/register', { fetch_event_types: ['realm_bot'] });
    expect(state.body.realm_bots).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: botId, api_key: apiKey })]),
    );
  });

  it('creates an outgoing webhook bot with its service; edits and deactivates bots', async () => {
    const created = await world.as('cordelia').post('/bots', {
      full_name: 'Hook Bot',
      short_name: 'hook',
      bot_type: 3,
      payload_url: JSON.stringify('http://127.0.0.1:9/hook'),
      interface_type: 1,
    });
    expect(created.status).toBe(200);
    const botId = created.body.user_id as number;
    const queue = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_bot'] });
    const state = await world.as('cordelia').post('/register', { fetch_event_types: ['realm_bot'] });
    const record = (state.body.realm_bots as { user_id: number; services: unknown[] }[]).find(
      (b) => b.user_id === botId,
    );
    expect(record?.services).toEqual([
      { base_url: 'http://127.0.0.1:9/hook', interface: 1, token: expect.any(String) },
    ]);

    const renamed = await world.as('cordelia').patch(`/bots/${botId}`, {
      full_name: 'Hooked Bot',
      service_payload_url: JSON.stringify('http://127.0.0.1:9/other'),
    });
    expect(renamed.status).toBe(200);
    expect(await queue.next((e) => e.op === 'update' && 'full_name' in e.bot)).toMatchObject({
      bot: { user_id: botId, full_name: 'Hooked Bot' },
    });
    await queue.next((e) => e.op === 'update' && 'services' in e.bot);

    expectError(
      await world.as('hamlet').patch(`/bots/${botId}`, { full_name: 'Mine' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('cordelia').patch(`/bots/${botId}`, { bot_owner_id: 999999 }),
      400,
      'BAD_REQUEST',
      'Failed to change owner, no such user',
    );
    expectError(await world.as('hamlet').delete(`/bots/${botId}`), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await world.as('iago').delete(`/bots/${botId}`), 'DELETE', '/bots/{bot_id}', { undocumented: true });
    expect(await queue.next((e) => e.op === 'update' && e.bot.is_active === false)).toMatchObject({
      bot: { user_id: botId, is_active: false },
    });
    const user = await world.as('hamlet').get(`/users/${botId}`);
    expect(user.body.user.is_active).toBe(false);
  });

  it("refuses bad input with Zulip's messages", async () => {
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post('/bots', { full_name: 'Helper Bot', short_name: 'helper2' }),
      400,
      'BAD_REQUEST',
      'Name is already in use!',
    );
    expectError(
      await hamlet.post('/bots', { full_name: 'Another Bot', short_name: 'helper' }),
      400,
      'BAD_REQUEST',
      'Username already in use',
    );
    expectError(
      await hamlet.post('/bots', { full_name: 'Odd Bot', short_name: 'odd', bot_type: 9 }),
      400,
      'BAD_REQUEST',
      'Invalid bot type',
    );
    expectError(
      await hamlet.post('/bots', { full_name: 'Hookless Bot', short_name: 'hookless', bot_type: 3 }),
      400,
      'BAD_REQUEST',
      "Missing 'payload_url' argument",
    );
    expectError(
      await hamlet.post('/bots', { full_name: 'No Short' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'short_name' argument",
    );
    expectError(await hamlet.patch('/bots/999999', { full_name: 'X Y' }), 400, 'BAD_REQUEST', 'No such bot');
    // Guests may not create bots (can_create_bots_group is role:members).
    expectError(
      await world.as('polonius').post('/bots', { full_name: 'Guest Bot', short_name: 'guest' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });
});

describe('custom profile fields', () => {
  it('an administrator creates fields; everyone hears of them; users fill them in', async () => {
    const queue = await EventQueue.register(world.as('othello'), {
      event_types: ['custom_profile_fields', 'realm_user'],
    });
    const phone = await world.as('iago').post('/realm/profile_fields', {
      name: 'Phone',
      hint: 'Your number',
      field_type: 1,
    });
    expectSuccess(phone, 'POST', '/realm/profile_fields');
    const phoneId = phone.body.id as number;
    const team = await world.as('iago').post('/realm/profile_fields', {
      name: 'Team',
      field_type: 3,
      field_data: JSON.stringify({ backend: { text: 'Backend', order: '1' }, web: { text: 'Web', order: '2' } }),
    });
    expectSuccess(team, 'POST', '/realm/profile_fields');
    const teamId = team.body.id as number;
    const event = await queue.next((e) => e.type === 'custom_profile_fields' && e.fields.length === 2);
    expect(event.fields.map((f: { name: string }) => f.name)).toEqual(['Phone', 'Team']);

    const listed = await world.as('polonius').get('/realm/profile_fields');
    expectSuccess(listed, 'GET', '/realm/profile_fields');
    expect(listed.body.custom_fields).toMatchObject([
      { id: phoneId, name: 'Phone', hint: 'Your number', type: 1, order: 0 },
      { id: teamId, name: 'Team', type: 3, order: 1 },
    ]);

    const filled = await world.as('hamlet').patch('/users/me/profile_data', {
      data: JSON.stringify([
        { id: phoneId, value: '+1 555 0100' },
        { id: teamId, value: 'web' },
      ]),
    });
    expectSuccess(filled, 'PATCH', '/users/me/profile_data', { undocumented: true });
    const update = await queue.next((e) => e.type === 'realm_user' && e.person.custom_profile_field?.id === phoneId);
    expect(update.person).toEqual({
      user_id: world.user('hamlet').id,
      custom_profile_field: { id: phoneId, value: '+1 555 0100' },
    });
    const user = await world
      .as('othello')
      .get(`/users/${world.user('hamlet').id}`, { include_custom_profile_fields: true });
    expect(user.body.user.profile_data).toEqual({
      [phoneId]: { value: '+1 555 0100' },
      [teamId]: { value: 'web' },
    });
    const me = await world.as('hamlet').get('/users/me');
    expect(me.body.profile_data[phoneId]).toEqual({ value: '+1 555 0100' });

    expectSuccess(
      await world.as('hamlet').delete('/users/me/profile_data', { data: JSON.stringify([phoneId]) }),
      'DELETE',
      '/users/me/profile_data',
      {
        undocumented: true,
      },
    );
    const after = await world
      .as('othello')
      .get(`/users/${world.user('hamlet').id}`, { include_custom_profile_fields: true });
    expect(after.body.user.profile_data).toEqual({ [teamId]: { value: 'web' } });
  });

  it('edits, reorders and deletes fields; refuses members and bad input', async () => {
    const fields = (await world.as('iago').get('/realm/profile_fields')).body.custom_fields as {
      id: number;
      name: string;
    }[];
    const [phone, team] = fields;
    expectSuccess(
      await world
        .as('iago')
        .patch(`/realm/profile_fields/${phone!.id}`, { name: 'Telephone', editable_by_user: false }),
      'PATCH',
      '/realm/profile_fields/{field_id}',
      {
        undocumented: true,
      },
    );
    expectError(
      await world
        .as('hamlet')
        .patch('/users/me/profile_data', { data: JSON.stringify([{ id: phone!.id, value: '1' }]) }),
      400,
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    expectError(
      await world
        .as('hamlet')
        .patch('/users/me/profile_data', { data: JSON.stringify([{ id: team!.id, value: 'ops' }]) }),
      400,
      'BAD_REQUEST',
      "'ops' is not a valid choice for 'Team'.",
    );
    expectSuccess(
      await world.as('iago').patch('/realm/profile_fields', { order: JSON.stringify([team!.id, phone!.id]) }),
      'PATCH',
      '/realm/profile_fields',
    );
    const reordered = (await world.as('iago').get('/realm/profile_fields')).body.custom_fields;
    expect(reordered.map((f: { name: string }) => f.name)).toEqual(['Team', 'Telephone']);
    expectError(
      await world.as('iago').patch('/realm/profile_fields', { order: JSON.stringify([team!.id]) }),
      400,
      'BAD_REQUEST',
      'Invalid order mapping.',
    );

    expectError(
      await world.as('hamlet').post('/realm/profile_fields', { name: 'Nope', field_type: 1 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      notAdmin,
    );
    expectError(
      await world.as('iago').post('/realm/profile_fields', { name: 'Team', field_type: 1 }),
      400,
      'BAD_REQUEST',
      'A field with that label already exists.',
    );
    expectError(
      await world.as('iago').post('/realm/profile_fields', { name: 'Odd', field_type: 42 }),
      400,
      'BAD_REQUEST',
      'Invalid field type.',
    );
    expectError(
      await world.as('iago').post('/realm/profile_fields', { name: 'Empty', field_type: 3, field_data: '{}' }),
      400,
      'BAD_REQUEST',
      'Field must have at least one choice.',
    );
    expectError(
      await world.as('iago').delete('/realm/profile_fields/999999'),
      400,
      'BAD_REQUEST',
      'Field id 999999 not found.',
    );

    expectSuccess(
      await world.as('iago').delete(`/realm/profile_fields/${phone!.id}`),
      'DELETE',
      '/realm/profile_fields/{field_id}',
      {
        undocumented: true,
      },
    );
    const left = (await world.as('iago').get('/realm/profile_fields')).body.custom_fields;
    expect(left.map((f: { name: string }) => f.name)).toEqual(['Team']);
    const state = await world.as('hamlet').post('/register', { fetch_event_types: ['custom_profile_fields'] });
    expect(state.body.custom_profile_fields.map((f: { name: string }) => f.name)).toEqual(['Team']);
  });
});
