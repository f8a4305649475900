import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { newWorld } from './support/system';

type Presence = { active_timestamp: number; idle_timestamp: number };

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('presence', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('records a report, answers the modern map, and tells other users at once that someone came online', async () => {
    const othello = world.user('othello');
    const watcher = await EventQueue.register(world.as('hamlet'), { event_types: ['presence'] });
    const before = nowSeconds();
    const first = await world.as('othello').post('/users/me/presence', { status: 'active', slim_presence: true });
    expectSuccess(first, 'POST', '/users/me/presence');
    const mine = first.body.presences[String(othello.id)] as Presence;
    expect(mine.active_timestamp).toBeGreaterThanOrEqual(before);
    expect(mine.idle_timestamp).toBe(mine.active_timestamp);
    expect(typeof first.body.server_timestamp).toBe('number');
    const lastUpdateId = first.body.presence_last_update_id as number;
    expect(lastUpdateId).toBeGreaterThan(0);

    const event = await watcher.next((e) => e.type === 'presence' && e.user_id === othello.id);
    expect(event).toMatchObject({
      type: 'presence',
      user_id: othello.id,
      email: othello.email,
      presence: { website: { client: 'website', status: 'active', timestamp: mine.active_timestamp, pushable: false } },
    });
    expect(typeof event.server_timestamp).toBe('number');

    // The modern protocol: with last_update_id only what changed since comes back (nothing, within a minute).
    const again = await world.as('othello').post('/users/me/presence', {
      status: 'active',
      last_update_id: lastUpdateId,
      history_limit_days: 14,
    });
    expectSuccess(again, 'POST', '/users/me/presence');
    expect(again.body.presences).toEqual({});
    expect(again.body.presence_last_update_id).toBe(lastUpdateId);

    // Another user's first report is new to a client that has seen everything up to lastUpdateId.
    const cordelia = await world.as('cordelia').post('/users/me/presence', {
      status: 'idle',
      last_update_id: lastUpdateId,
    });
    expectSuccess(cordelia, 'POST', '/users/me/presence');
    expect(Object.keys(cordelia.body.presences)).toEqual([String(world.user('cordelia').id)]);
    expect(cordelia.body.presence_last_update_id).toBeGreaterThan(lastUpdateId);
    await watcher.delete();
  });

  it('answers ping_only with nothing but success, and the legacy map by email without slim_presence', async () => {
    const pinged = await world.as('prospero').post('/users/me/presence', { status: 'idle', ping_only: true });
    expectSuccess(pinged, 'POST', '/users/me/presence');
    expect(Object.keys(pinged.body).sort()).toEqual(['msg', 'result']);

    const legacy = await world.as('prospero').post('/users/me/presence', { status: 'active' });
    expectSuccess(legacy, 'POST', '/users/me/presence');
    const prospero = legacy.body.presences[world.user('prospero').email];
    expect(prospero).toMatchObject({
      aggregated: { client: 'website', status: 'active' },
      website: { client: 'website', status: 'active', pushable: false },
    });
  });

  it('serves the whole organization (GET /realm/presence) and one user (GET /users/{id}/presence)', async () => {
    const aaron = world.user('aaron');
    expectSuccess(
      await world.as('aaron').post('/users/me/presence', { status: 'active' }),
      'POST',
      '/users/me/presence',
    );
    const realm = await world.as('default-bot').get('/realm/presence');
    expectSuccess(realm, 'GET', '/realm/presence');
    expect(realm.body.presences[aaron.email].aggregated.status).toBe('active');
    expect(realm.body.presence_last_update_id).toBeUndefined();

    const byId = await world.as('iago').get(`/users/${aaron.id}/presence`);
    expectSuccess(byId, 'GET', '/users/{user_id_or_email}/presence');
    expect(byId.body.presence).toMatchObject({ aggregated: { status: 'active' }, website: { status: 'active' } });
    expect(byId.body.presence.website.client).toBeUndefined();
    const byEmail = await world.as('iago').get(`/users/${aaron.email}/presence`, { slim_presence: true });
    // The slim answer of this endpoint is newer than Zulip's description (feature level ~420).
    expect({ status: byEmail.status, result: byEmail.body.result }).toEqual({ status: 200, result: 'success' });
    expect(Object.keys(byEmail.body.presence).sort()).toEqual(['active_timestamp', 'idle_timestamp']);
  });

  it("refuses bad reports and users Zulip has no presence for, with Zulip's errors", async () => {
    expectError(
      await world.as('hamlet').post('/users/me/presence', { status: 'sleeping' }),
      400,
      'BAD_REQUEST',
      'Invalid status: sleeping',
    );
    expectError(
      await world.as('default-bot').post('/users/me/presence', { status: 'active' }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
    const iago = world.as('iago');
    expectError(
      await iago.get(`/users/${world.user('default-bot').id}/presence`),
      400,
      'BAD_REQUEST',
      'Presence is not supported for bot users.',
    );
    const polonius = world.user('polonius').id;
    expectError(await iago.get(`/users/${polonius}/presence`), 400, 'BAD_REQUEST', `No presence data for ${polonius}`);
    expectError(await iago.get('/users/nobody@example.com/presence'), 400, 'BAD_REQUEST', 'No such user');
  });

  it('comes in /register with the presence settings, keyed by user id for slim_presence', async () => {
    const shiva = world.user('shiva');
    expectSuccess(
      await world.as('shiva').post('/users/me/presence', { status: 'active' }),
      'POST',
      '/users/me/presence',
    );
    const queue = await EventQueue.register(world.as('iago'), {
      slim_presence: true,
      fetch_event_types: ['presence', 'realm'],
    });
    const state = queue.registration;
    expect(state.server_presence_ping_interval_seconds).toBe(60);
    expect(state.server_presence_offline_threshold_seconds).toBe(140);
    expect(state.realm_presence_disabled).toBe(false);
    expect(Object.keys(state.presences[String(shiva.id)]).sort()).toEqual(['active_timestamp', 'idle_timestamp']);
    expect(state.presence_last_update_id).toBeGreaterThan(0);
    await queue.delete();
  });

  it('shows a user who stops sharing presence as last seen minutes ago, to everyone at once', async () => {
    const cordelia = world.user('cordelia');
    const slim = async () => {
      const response = await world.as('aaron').get(`/users/${cordelia.id}/presence`, { slim_presence: true });
      // The slim answer of this endpoint is newer than Zulip's description (feature level ~420).
      expect({ status: response.status, result: response.body.result }).toEqual({ status: 200, result: 'success' });
      return response.body.presence as Presence;
    };
    const watcher = await EventQueue.register(world.as('aaron'), { event_types: ['presence'] });
    expectSuccess(await world.as('cordelia').patch('/settings', { presence_enabled: false }), 'PATCH', '/settings');
    // Zulip's rule: last connected a little more than the offline threshold ago, never active since.
    const off = await slim();
    expect(nowSeconds() - off.idle_timestamp).toBeGreaterThan(140);
    await watcher.next((e) => e.type === 'presence' && e.user_id === cordelia.id);

    // Reports change nothing while sharing is off.
    expectSuccess(
      await world.as('cordelia').post('/users/me/presence', { status: 'active' }),
      'POST',
      '/users/me/presence',
    );
    expect(await slim()).toEqual(off);

    expectSuccess(await world.as('cordelia').patch('/settings', { presence_enabled: true }), 'PATCH', '/settings');
    const on = await slim();
    expect(nowSeconds() - on.active_timestamp).toBeLessThan(60);
    expect(on.idle_timestamp).toBe(on.active_timestamp);
    await watcher.delete();
  });

  it('stops telling others about presence once the organization has more than 100 active users, as Zulip', async () => {
    const large = await newWorld();
    const members = await large.as('iago').get('/users');
    expectSuccess(members, 'GET', '/users');
    const active = (members.body.members as { is_active: boolean }[]).filter((m) => m.is_active).length;
    // Zulip counts bots among the active users (USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS is 100).
    const needed = 101 - active;
    for (let start = 0; start < needed; start += 10) {
      const batch = Array.from({ length: Math.min(10, needed - start) }, (_, i) => start + i);
      for (const answer of await Promise.all(
        batch.map((n) =>
          large.as('hamlet').post('/bots', { full_name: `Counter ${n}`, short_name: `counter-${n}`, bot_type: 1 }),
        ),
      ))
        expectSuccess(answer, 'POST', '/bots', { undocumented: true });
    }
    const watcher = await EventQueue.register(large.as('hamlet'), { event_types: ['presence', 'user_status'] });
    const report = await large.as('othello').post('/users/me/presence', { status: 'active', slim_presence: true });
    expectSuccess(report, 'POST', '/users/me/presence');
    // The report itself is recorded and read back; only the event is not sent.
    expect(Object.keys(report.body.presences)).toContain(String(large.user('othello').id));
    // Othello's status change comes after the report from the same service: no presence event may come before it.
    expectSuccess(
      await large.as('othello').post('/users/me/status', { status_text: 'counting' }),
      'POST',
      '/users/me/status',
    );
    const first = await watcher.next((e) => e.type === 'presence' || e.type === 'user_status');
    expect(first).toMatchObject({ type: 'user_status', user_id: large.user('othello').id, status_text: 'counting' });
    await watcher.delete();
  });

  it('shares nothing in an organization with presence disabled', async () => {
    const other = await newWorld();
    expectSuccess(
      await other.as('hamlet').post('/users/me/presence', { status: 'active' }),
      'POST',
      '/users/me/presence',
    );
    const patched = await internalRequest('settings', 'PATCH', `/dev/realms/${other.realm.realm_id}`, {
      presence_disabled: true,
    });
    expect(patched.status).toBe(200);
    const answer = await other.as('othello').post('/users/me/presence', { status: 'active', slim_presence: true });
    expectSuccess(answer, 'POST', '/users/me/presence');
    expect(answer.body.presences).toEqual({});
    expect(answer.body.presence_last_update_id).toBe(-1);
    const queue = await EventQueue.register(other.as('iago'), { fetch_event_types: ['presence', 'realm'] });
    expect(queue.registration.realm_presence_disabled).toBe(true);
    expect(queue.registration.presences).toEqual({});
    await queue.delete();
  });
});

describe('user status', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('sets text and emoji, reads them back, and tells the other users', async () => {
    const hamlet = world.user('hamlet');
    const watcher = await EventQueue.register(world.as('othello'), { event_types: ['user_status'] });
    const set = await world.as('hamlet').post('/users/me/status', {
      status_text: '  In a meeting  ',
      emoji_name: 'car',
    });
    expectSuccess(set, 'POST', '/users/me/status');
    const read = await world.as('othello').get(`/users/${hamlet.id}/status`);
    expectSuccess(read, 'GET', '/users/{user_id}/status');
    expect(read.body.status).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    const event = await watcher.next((e) => e.type === 'user_status' && e.user_id === hamlet.id);
    expect(event).toMatchObject({
      status_text: 'In a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    const state = await EventQueue.register(world.as('iago'), { fetch_event_types: ['user_status'] });
    expect(state.registration.user_status[String(hamlet.id)]).toEqual(read.body.status);
    await state.delete();

    // Clearing both parts leaves nothing to show.
    expectSuccess(
      await world.as('hamlet').post('/users/me/status', { status_text: '', emoji_name: '' }),
      'POST',
      '/users/me/status',
    );
    expect((await world.as('othello').get(`/users/${hamlet.id}/status`)).body.status).toEqual({});
    const cleared = await watcher.next(
      (e) => e.type === 'user_status' && e.user_id === hamlet.id && e.status_text === '',
    );
    expect(cleared).toMatchObject({ emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
    await watcher.delete();
  });

  it("lets an administrator set another account's status (POST /users/{user_id}/status), and no one else", async () => {
    const bot = world.user('default-bot');
    const hamlet = world.user('hamlet');
    const watcher = await EventQueue.register(world.as('othello'), { event_types: ['user_status'] });
    expectSuccess(
      await world.as('iago').post(`/users/${bot.id}/status`, { status_text: 'Deploying', emoji_name: 'car' }),
      'POST',
      '/users/{user_id}/status',
    );
    expect(await watcher.next((e) => e.type === 'user_status' && e.user_id === bot.id)).toMatchObject({
      status_text: 'Deploying',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    const state = await EventQueue.register(world.as('cordelia'), { fetch_event_types: ['user_status'] });
    expect(state.registration.user_status[String(bot.id)]).toEqual({
      status_text: 'Deploying',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    await state.delete();
    // A human's status too; the request has no `away`, so presence sharing stays the user's own.
    expectSuccess(
      await world.as('iago').post(`/users/${hamlet.id}/status`, { status_text: 'On leave', away: true }),
      'POST',
      '/users/{user_id}/status',
    );
    expect((await world.as('othello').get(`/users/${hamlet.id}/status`)).body.status).toEqual({
      status_text: 'On leave',
    });

    expectError(
      await world.as('hamlet').post(`/users/${bot.id}/status`, { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('iago').post('/users/999999/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await world.as('iago').post(`/users/${bot.id}/status`, {}),
      400,
      'BAD_REQUEST',
      'Client did not pass any new values.',
    );
    expectError(
      await world.as('iago').post(`/users/${bot.id}/status`, { status_text: 'x'.repeat(61) }),
      400,
      'BAD_REQUEST',
      'status_text is too long (limit: 60 characters)',
    );
    await watcher.delete();
  });

  it('maps the deprecated away flag to the presence_enabled setting', async () => {
    const aaron = world.user('aaron');
    const own = await EventQueue.register(world.as('aaron'), { event_types: ['user_settings', 'user_status'] });
    expectSuccess(await world.as('aaron').post('/users/me/status', { away: true }), 'POST', '/users/me/status');
    expect((await world.as('iago').get(`/users/${aaron.id}/status`)).body.status).toEqual({ away: true });
    await own.next((e) => e.type === 'user_settings' && e.property === 'presence_enabled' && e.value === false);
    await own.next((e) => e.type === 'user_status' && e.away === true);
    expectSuccess(await world.as('aaron').post('/users/me/status', { away: false }), 'POST', '/users/me/status');
    expect((await world.as('iago').get(`/users/${aaron.id}/status`)).body.status).toEqual({});
    await own.delete();
  });

  it.each([
    [{}, 'Client did not pass any new values.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ emoji_name: 'no_such_emoji_here' }, "Emoji 'no_such_emoji_here' does not exist"],
    [{ emoji_code: '1f697' }, 'Client did not pass any new values.'],
    [
      { status_text: 'x', reaction_type: 'unicode_emoji' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [{ emoji_name: 'car', emoji_code: '1f600', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: 'zzz', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'image' }, 'Invalid emoji type.'],
    [{ emoji_name: 'my_own', emoji_code: '999999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
  ])('refuses %j with %j', async (params, msg) => {
    expectError(await world.as('cordelia').post('/users/me/status', params), 400, 'BAD_REQUEST', msg);
  });

  it("accepts Zulip's own extra emoji under its Zulip name", async () => {
    const shiva = world.user('shiva');
    expectSuccess(
      await world.as('shiva').post('/users/me/status', {
        emoji_name: 'zulip',
        emoji_code: 'zulip',
        reaction_type: 'zulip_extra_emoji',
      }),
      'POST',
      '/users/me/status',
    );
    expect((await world.as('iago').get(`/users/${shiva.id}/status`)).body.status).toEqual({
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
  });

  it('has no status for bots or unknown users', async () => {
    expectError(
      await world.as('iago').get(`/users/${world.user('default-bot').id}/status`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(await world.as('iago').get('/users/999999999/status'), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await world.as('default-bot').post('/users/me/status', { status_text: 'beep' }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('tells the owner the same thing on the very next request (read-your-writes)', async () => {
    const prospero = world.user('prospero');
    for (const text of ['one', 'two', 'three']) {
      expectSuccess(
        await world.as('prospero').post('/users/me/status', { status_text: text }),
        'POST',
        '/users/me/status',
      );
      const status = (await world.as('prospero').get(`/users/${prospero.id}/status`)).body.status;
      expect(status.status_text).toBe(text);
    }
    const state = await EventQueue.register(world.as('prospero'), { fetch_event_types: ['user_status'] });
    expect(state.registration.user_status[String(prospero.id)].status_text).toBe('three');
    await state.delete();
  });
});
