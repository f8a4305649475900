import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { eventually } from './support/groups';
import { channelIds, STRONG_PASSWORD } from './support/invitations';
import { newWorld } from './support/system';

// Measured: about 20 s on the 2-core machine (one organization for the file).
jest.setTimeout(90_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const notAdmin = 'Must be an organization administrator';
const notOwner = 'Must be an organization owner';

async function registerState(name: Parameters<World['as']>[0], types: string[]): Promise<Record<string, any>> {
  const response = await world.as(name).post('/register', { fetch_event_types: types });
  expect(response.status).toBe(200);
  return response.body;
}

/** The id of a system group, as /register's group-valued settings name them. */
async function systemGroupId(name: string): Promise<number> {
  const response = await world.as('iago').get('/user_groups');
  const group = (response.body.user_groups as { id: number; name: string }[]).find((g) => g.name === name);
  if (!group) throw new Error(`no system group ${name}`);
  return group.id;
}

async function send(content: string, topic = 'settings'): Promise<number> {
  const sent = await world.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic, content });
  expect(sent.status).toBe(200);
  return sent.body.id as number;
}

describe('PATCH /realm', () => {
  it("changes the organization's name and description; every client hears of it", async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm'] });
    const response = await world.as('iago').patch('/realm', { name: 'Renamed org', description: 'We *talk*.' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ result: 'success', name: 'Renamed org', description: 'We *talk*.' });
    expect(await queue.next((e) => e.type === 'realm' && e.property === 'name')).toMatchObject({
      type: 'realm',
      op: 'update',
      property: 'name',
      value: 'Renamed org',
    });
    // Zulip's do_set_realm_property: the description travels as an update_dict with its rendering.
    expect(await queue.next((e) => e.type === 'realm' && e.op === 'update_dict' && 'description' in e.data)).toEqual(
      expect.objectContaining({
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { description: 'We *talk*.', rendered_description: '<p>We <em>talk</em>.</p>' },
      }),
    );
    const state = await registerState('othello', ['realm']);
    expect(state.realm_name).toBe('Renamed org');
    // /register keeps the Markdown (what the settings form edits) and the rendering beside it.
    expect(state.realm_description).toBe('We *talk*.');
    expect(state.realm_rendered_description).toBe('<p>We <em>talk</em>.</p>');
    // /server_settings (the login page's) shows the rendering.
    const server = await world.anonymous().get('/server_settings');
    expect(server.body.realm_description).toBe('<p>We <em>talk</em>.</p>');

    // Nothing changes, nothing is announced.
    const again = await world.as('iago').patch('/realm', { name: 'Renamed org' });
    expect(again.body).toEqual({ result: 'success', msg: '' });
  });

  it('is refused to members, and some settings to administrators who are not owners', async () => {
    expectError(await world.as('hamlet').patch('/realm', { name: 'Mine' }), 400, 'UNAUTHORIZED_PRINCIPAL', notAdmin);
    expectError(await world.as('shiva').patch('/realm', { name: 'Mine' }), 400, 'UNAUTHORIZED_PRINCIPAL', notAdmin);
    expectError(
      await world.as('iago').patch('/realm', { waiting_period_threshold: 3 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      notOwner,
    );
    expectError(
      await world.as('iago').patch('/realm', { invite_required: false }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      notOwner,
    );
    const owner = await world.as('desdemona').patch('/realm', { waiting_period_threshold: 3, invite_required: false });
    expect(owner.body).toMatchObject({ result: 'success', waiting_period_threshold: 3, invite_required: false });
    const state = await registerState('hamlet', ['realm']);
    expect(state).toMatchObject({ realm_waiting_period_threshold: 3, realm_invite_required: false });
  });

  it("refuses bad values with Zulip's messages", async () => {
    const iago = world.as('iago');
    expectError(
      await iago.patch('/realm', { name: 'x'.repeat(41) }),
      400,
      'BAD_REQUEST',
      'name is too long (limit: 40 characters)',
    );
    expectError(
      await iago.patch('/realm', { message_content_edit_limit_seconds: -5 }),
      400,
      'BAD_REQUEST',
      "Bad value for 'message_content_edit_limit_seconds': -5",
    );
    expectError(await iago.patch('/realm', { default_language: 'xx' }), 400, 'BAD_REQUEST', "Invalid language 'xx'");
    expectError(
      await iago.patch('/realm', { video_chat_provider: 9 }),
      400,
      'BAD_REQUEST',
      'Invalid video_chat_provider 9',
    );
    expectError(
      await iago.patch('/realm', { enable_read_receipts: 5 }),
      400,
      'BAD_REQUEST',
      'enable_read_receipts is not a boolean',
    );
    expectError(
      await iago.patch('/realm', { moderation_request_channel_id: 987654 }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    // A refused request changes nothing, not even its valid parts.
    expectError(
      await iago.patch('/realm', { digest_emails_enabled: true, giphy_rating: 42 }),
      400,
      'BAD_REQUEST',
      'Invalid giphy_rating 42',
    );
    expect((await registerState('iago', ['realm'])).realm_digest_emails_enabled).toBe(false);
  });

  it('turns read receipts on and off where they are read (messaging)', async () => {
    const id = await send('read me');
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm'] });
    expectSuccess(await world.as('iago').patch('/realm', { enable_read_receipts: true }), 'PATCH', '/realm', {
      undocumented: true,
    });
    expect(await queue.next((e) => e.property === 'enable_read_receipts')).toMatchObject({
      op: 'update',
      value: true,
    });
    await eventually(async () => {
      const receipts = await world.as('hamlet').get(`/messages/${id}/read_receipts`);
      expect(receipts.status).toBe(200);
    });
    expect((await registerState('hamlet', ['realm'])).realm_enable_read_receipts).toBe(true);

    await world.as('iago').patch('/realm', { enable_read_receipts: false });
    await eventually(async () =>
      expectError(
        await world.as('hamlet').get(`/messages/${id}/read_receipts`),
        400,
        'BAD_REQUEST',
        'Read receipts are disabled in this organization.',
      ),
    );
  });

  it('sets message editing and its time limits (update_dict events); messaging enforces them', async () => {
    const id = await send('typo');
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['realm'] });
    const limit = await world.as('iago').patch('/realm', {
      message_content_edit_limit_seconds: JSON.stringify('unlimited'),
    });
    expect(limit.body).toMatchObject({ result: 'success', message_content_edit_limit_seconds: null });
    expect(await queue.next((e) => e.op === 'update_dict')).toMatchObject({
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { message_content_edit_limit_seconds: null },
    });

    await world.as('iago').patch('/realm', { allow_message_editing: false });
    expect(
      await queue.next((e) => e.op === 'update_dict' && 'allow_message_editing' in (e.data as object)),
    ).toMatchObject({ data: { allow_message_editing: false } });
    await eventually(async () =>
      expectError(
        await world.as('hamlet').patch(`/messages/${id}`, { content: 'fixed' }),
        400,
        'BAD_REQUEST',
        'Your organization has turned off message editing',
      ),
    );
    await world.as('iago').patch('/realm', { allow_message_editing: true });
    await eventually(async () =>
      expectSuccess(
        await world.as('hamlet').patch(`/messages/${id}`, { content: 'fixed' }),
        'PATCH',
        '/messages/{message_id}',
      ),
    );
    const state = await registerState('hamlet', ['realm']);
    expect(state).toMatchObject({ realm_allow_message_editing: true, realm_message_content_edit_limit_seconds: null });
  });

  it('sets a group-valued permission: update_dict event, /register, the capability it grants', async () => {
    const admins = await systemGroupId('role:administrators');
    const members = await systemGroupId('role:members');
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm'] });
    expect((await registerState('hamlet', ['realm'])).can_create_public_streams).toBe(true);

    expectError(
      await world
        .as('iago')
        .patch('/realm', { can_create_public_channel_group: JSON.stringify({ new: admins, old: admins }) }),
      400,
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    const everyone = await systemGroupId('role:everyone');
    expectError(
      await world.as('iago').patch('/realm', { can_create_public_channel_group: JSON.stringify({ new: everyone }) }),
      400,
      'BAD_REQUEST',
      "'can_create_public_channel_group' setting cannot be set to 'role:everyone' group.",
    );
    const changed = await world
      .as('iago')
      .patch('/realm', { can_create_public_channel_group: JSON.stringify({ new: admins, old: members }) });
    expect(changed.body).toMatchObject({ result: 'success', can_create_public_channel_group: admins });
    expect(await queue.next((e) => e.op === 'update_dict')).toMatchObject({
      data: { can_create_public_channel_group: admins },
    });
    const state = await registerState('hamlet', ['realm']);
    expect(state).toMatchObject({
      realm_can_create_public_channel_group: admins,
      realm_create_public_stream_policy: 2,
      can_create_public_streams: false,
    });
    expect((await registerState('iago', ['realm'])).can_create_public_streams).toBe(true);
  });

  it('chooses the moderation request channel, to which message reports then go', async () => {
    const created = await world.as('iago').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'mods' }]),
      invite_only: true,
    });
    expect(created.status).toBe(200);
    const mods = (await channelIds(world.as('iago')))['mods' as 'Verona'];
    const response = await world.as('iago').patch('/realm', { moderation_request_channel_id: mods });
    expect(response.body).toMatchObject({ result: 'success', moderation_request_channel_id: mods });
    expect((await registerState('iago', ['realm'])).realm_moderation_request_channel_id).toBe(mods);
    const id = await send('something rude', 'rude');
    await eventually(async () =>
      expectSuccess(
        await world.as('cordelia').post(`/messages/${id}/report`, { report_type: 'spam' }),
        'POST',
        '/messages/{message_id}/report',
      ),
    );
    // -1: no channel; reporting is off again.
    await world.as('iago').patch('/realm', { moderation_request_channel_id: -1 });
    expect((await registerState('iago', ['realm'])).realm_moderation_request_channel_id).toBe(-1);
    await eventually(async () =>
      expectError(
        await world.as('cordelia').post(`/messages/${id}/report`, { report_type: 'spam' }),
        400,
        'BAD_REQUEST',
        'Message reporting is not enabled in this organization.',
      ),
    );
  });

  it('stores the settings only clients read (digests, language, video calls, email notifications)', async () => {
    const response = await world.as('iago').patch('/realm', {
      digest_emails_enabled: true,
      digest_weekday: 3,
      default_language: 'de',
      video_chat_provider: 0,
      message_content_allowed_in_email_notifications: false,
      send_welcome_emails: false,
      message_edit_history_visibility_policy: 'moves',
    });
    expect(response.status).toBe(200);
    const state = await registerState('othello', ['realm']);
    expect(state).toMatchObject({
      realm_digest_emails_enabled: true,
      realm_digest_weekday: 3,
      realm_default_language: 'de',
      realm_video_chat_provider: 0,
      realm_message_content_allowed_in_email_notifications: false,
      realm_send_welcome_emails: false,
      realm_message_edit_history_visibility_policy: 'moves',
      realm_allow_edit_history: true,
    });
  });
});

describe('POST /register: the realm section', () => {
  it("has Zulip's realm_* fields, the deprecated ones included", async () => {
    const state = await registerState('hamlet', ['realm', 'realm_domains', 'realm_user_settings_defaults']);
    for (const key of [
      'realm_name',
      'realm_description',
      'realm_invite_required',
      'realm_default_language',
      'realm_video_chat_provider',
      'realm_available_video_chat_providers',
      'realm_authentication_methods',
      'realm_new_stream_announcements_stream_id',
      'realm_signup_announcements_stream_id',
      'realm_zulip_update_announcements_stream_id',
      'realm_create_private_stream_policy',
      'realm_wildcard_mention_policy',
      'can_create_streams',
      'can_subscribe_other_users',
      'can_invite_others_to_realm',
      'realm_domains',
      'realm_user_settings_defaults',
      'server_generation',
    ])
      expect(state).toHaveProperty(key);
    expect(state.realm_domains).toEqual([]);
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes what new users start with; administrators hear of it', async () => {
    const queue = await EventQueue.register(world.as('iago'), { event_types: ['realm_user_settings_defaults'] });
    expectError(
      await world.as('hamlet').patch('/realm/user_settings_defaults', { twenty_four_hour_time: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      notAdmin,
    );
    expectError(
      await world.as('iago').patch('/realm/user_settings_defaults', { color_scheme: 9 }),
      400,
      'BAD_REQUEST',
      'Invalid color_scheme: Value error, Not in the list of possible values',
    );
    expectError(
      await world.as('iago').patch('/realm/user_settings_defaults', { notification_sound: 'nope' }),
      400,
      'BAD_REQUEST',
      "Invalid notification sound 'nope'",
    );
    const response = await world
      .as('iago')
      .patch('/realm/user_settings_defaults', { twenty_four_hour_time: true, email_address_visibility: 2 });
    expectSuccess(response, 'PATCH', '/realm/user_settings_defaults');
    expect(await queue.next((e) => e.property === 'twenty_four_hour_time')).toMatchObject({
      type: 'realm_user_settings_defaults',
      op: 'update',
      property: 'twenty_four_hour_time',
      value: true,
    });
    const state = await registerState('hamlet', ['realm_user_settings_defaults']);
    expect(state.realm_user_settings_defaults).toMatchObject({
      twenty_four_hour_time: true,
      email_address_visibility: 2,
      default_language: 'de',
    });

    // A user created now starts with the organization's choice; existing users keep theirs.
    const created = await world.as('iago').post('/users', {
      email: 'newcomer@example.com',
      password: STRONG_PASSWORD,
      full_name: 'New Comer',
    });
    expectSuccess(created, 'POST', '/users');
    const me = await world.as('hamlet').post('/register', { fetch_event_types: ['user_settings'] });
    expect(me.body.user_settings.twenty_four_hour_time).toBe(false);
    const login = await world.anonymous().post('/fetch_api_key', {
      username: 'newcomer@example.com',
      password: STRONG_PASSWORD,
    });
    expect(login.status).toBe(200);
    const newcomer = world.anonymous().withCredentials('newcomer@example.com', login.body.api_key as string);
    const theirs = await newcomer.post('/register', { fetch_event_types: ['user_settings'] });
    expect(theirs.body.user_settings).toMatchObject({ twenty_four_hour_time: true, default_language: 'de' });
  });
});

describe('POST /users', () => {
  it('an administrator creates an account; others see the new user', async () => {
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['realm_user'] });
    const created = await world.as('iago').post('/users', {
      email: 'created@example.com',
      password: STRONG_PASSWORD,
      full_name: 'Created Person',
    });
    expectSuccess(created, 'POST', '/users');
    const userId = created.body.user_id as number;
    const event = await queue.next((e) => e.type === 'realm_user' && e.op === 'add');
    expect(event.person).toMatchObject({ user_id: userId, full_name: 'Created Person', role: 400 });
    const fetched = await world.as('othello').get(`/users/${userId}`);
    expect(fetched.body.user).toMatchObject({ full_name: 'Created Person', is_active: true });
  });

  it('gives the new user in the realm_user event exactly as GET /users/{id} does', async () => {
    const othello = world.as('othello');
    const queues = await Promise.all(
      [false, true].map((gravatar) =>
        EventQueue.register(othello, { event_types: ['realm_user'], client_gravatar: gravatar }),
      ),
    );
    const created = await world.as('iago').post('/users', {
      email: 'agreeing@example.com',
      password: STRONG_PASSWORD,
      full_name: 'Agreeing Person',
    });
    expectSuccess(created, 'POST', '/users');
    const userId = created.body.user_id as number;
    for (const [i, gravatar] of [false, true].entries()) {
      const event = await queues[i]!.next(
        (e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === userId,
      );
      const fetched = await othello.get(`/users/${userId}`, {
        client_gravatar: gravatar,
        include_custom_profile_fields: true,
      });
      expect({ client_gravatar: gravatar, person: event.person }).toEqual({
        client_gravatar: gravatar,
        person: fetched.body.user,
      });
      await queues[i]!.delete();
    }
  });

  it("refuses members, taken addresses, bad names and weak passwords with Zulip's messages", async () => {
    const spec = { email: 'other@example.com', password: STRONG_PASSWORD, full_name: 'Other Person' };
    expectError(await world.as('hamlet').post('/users', spec), 400, 'UNAUTHORIZED_PRINCIPAL', notAdmin);
    expectError(
      await world.as('iago').post('/users', { ...spec, email: world.user('hamlet').email.toUpperCase() }),
      400,
      'BAD_REQUEST',
      'Email is already in use.',
    );
    expectError(
      await world.as('iago').post('/users', { ...spec, password: 'abc' }),
      400,
      'BAD_REQUEST',
      'The password is too weak.',
    );
    expectError(
      await world.as('iago').post('/users', { ...spec, full_name: '' }),
      400,
      'BAD_REQUEST',
      'Name too short!',
    );
    expectError(
      await world.as('iago').post('/users', { email: 'x@example.com', full_name: 'X Y' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
    );
  });
});
