import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { EventTap, waitHandled } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { newWorld, system } from './support/system';

describe('muted users', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['muted_user.*']);
  });
  afterAll(() => tap.close());

  it('mutes and unmutes, in /register and as muted_users events to the user, and publishes the fact', async () => {
    const hamlet = world.user('hamlet');
    const cordelia = world.user('cordelia');
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['muted_users'] });
    const before = Math.floor(Date.now() / 1000);
    expectSuccess(
      await world.as('hamlet').post(`/users/me/muted_users/${cordelia.id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
    const added = await queue.next((e) => e.type === 'muted_users');
    expect(added.muted_users).toEqual([{ id: cordelia.id, timestamp: expect.any(Number) }]);
    expect(added.muted_users[0].timestamp).toBeGreaterThanOrEqual(before);

    const published = await tap.next((e) => e.type === 'muted_user.added' && e.payload.user_id === hamlet.id);
    expect(published.payload).toEqual({
      user_id: hamlet.id,
      realm_id: world.realm.realm_id,
      muted_user_id: cordelia.id,
      muted_users: added.muted_users,
    });

    const state = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['muted_users'] });
    expect(state.registration.muted_users).toEqual(added.muted_users);
    await state.delete();
    // Muting is personal.
    const other = await EventQueue.register(world.as('othello'), { fetch_event_types: ['muted_users'] });
    expect(other.registration.muted_users).toEqual([]);
    await other.delete();

    expectSuccess(
      await world.as('hamlet').delete(`/users/me/muted_users/${cordelia.id}`),
      'DELETE',
      '/users/me/muted_users/{muted_user_id}',
    );
    await queue.next((e) => e.type === 'muted_users' && e.muted_users.length === 0);
    await tap.next((e) => e.type === 'muted_user.removed' && e.payload.muted_user_id === cordelia.id);
    await queue.delete();
  });

  it("refuses with Zulip's errors", async () => {
    const client = world.as('othello');
    const othello = world.user('othello');
    const iago = world.user('iago');
    expectError(await client.post(`/users/me/muted_users/${othello.id}`), 400, 'BAD_REQUEST', 'Cannot mute self');
    expectError(await client.post('/users/me/muted_users/999999999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await client.delete(`/users/me/muted_users/${iago.id}`), 400, 'BAD_REQUEST', 'User is not muted');
    expectSuccess(
      await client.post(`/users/me/muted_users/${iago.id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
    expectError(await client.post(`/users/me/muted_users/${iago.id}`), 400, 'BAD_REQUEST', 'User already muted');
    // Bots can be muted too.
    expectSuccess(
      await client.post(`/users/me/muted_users/${world.user('default-bot').id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
  });
});

describe('alert words', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('adds words once each regardless of case, removes them, and tells the user', async () => {
    const client = world.as('prospero');
    const queue = await EventQueue.register(client, { event_types: ['alert_words'] });
    const added = await client.post('/users/me/alert_words', { alert_words: ['foo', ' Bar ', 'bar', '  '] });
    expectSuccess(added, 'POST', '/users/me/alert_words');
    expect(added.body.alert_words).toEqual(['foo', 'bar']);
    const more = await client.post('/users/me/alert_words', { alert_words: ['FOO', 'baz'] });
    expect(more.body.alert_words).toEqual(['foo', 'bar', 'baz']);
    const removed = await client.delete('/users/me/alert_words', { alert_words: ['BAR', 'never added'] });
    expectSuccess(removed, 'DELETE', '/users/me/alert_words');
    expect(removed.body.alert_words).toEqual(['foo', 'baz']);

    const listed = await client.get('/users/me/alert_words');
    expectSuccess(listed, 'GET', '/users/me/alert_words');
    expect(listed.body.alert_words).toEqual(['foo', 'baz']);
    await queue.next((e) => e.type === 'alert_words' && JSON.stringify(e.alert_words) === '["foo","baz"]');
    const state = await EventQueue.register(client, { fetch_event_types: ['alert_words'] });
    expect(state.registration.alert_words).toEqual(['foo', 'baz']);
    expect((await world.as('aaron').get('/users/me/alert_words')).body.alert_words).toEqual([]);
    await state.delete();
    await queue.delete();
  });

  it("pages every user's muted users and alert words for services that keep a copy (backfill)", async () => {
    const prospero = world.user('prospero');
    expectSuccess(
      await world.as('prospero').post(`/users/me/muted_users/${world.user('othello').id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
    await world.as('prospero').post('/users/me/alert_words', { alert_words: ['tempest'] });
    const page = await internalRequest<{ users: Record<string, unknown>[] }>(
      'settings',
      'GET',
      `/personal_filters?after_id=${prospero.id - 1}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.users[0]).toEqual({
      user_id: prospero.id,
      realm_id: world.realm.realm_id,
      muted_user_ids: [world.user('othello').id],
      alert_words: expect.arrayContaining(['tempest']),
    });
    expect(page.body.users.map((u) => u.user_id)).toEqual(
      [...page.body.users.map((u) => u.user_id as number)].sort((a, b) => a - b),
    );
    // Only for services: a user's credentials are refused.
    expect((await world.as('prospero').get('/internal/personal_filters')).status).toBe(404);
  });

  it("refuses with Zulip's errors", async () => {
    const client = world.as('aaron');
    expectError(
      await client.post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] }),
      400,
      'BAD_REQUEST',
      'alert_words[0] is too long (limit: 100 characters)',
    );
    expectError(
      await client.post('/users/me/alert_words', { alert_words: 'foo' }),
      400,
      'BAD_REQUEST',
      'alert_words is not valid JSON',
    );
    expectError(
      await client.post('/users/me/alert_words', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'alert_words' argument",
    );
  });
});

describe('bot storage', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('stores, reads, updates and removes entries of a bot', async () => {
    const bot = world.as('default-bot');
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    expectSuccess(await bot.request('PUT', '/bot_storage', { storage: initial }), 'PUT', '/bot_storage', {
      undocumented: true,
    });
    const some = await bot.get('/bot_storage', { keys: ['key 1', 'key 3'] });
    expectSuccess(some, 'GET', '/bot_storage', { undocumented: true });
    expect(some.body.storage).toEqual({ 'key 1': 'value 1', 'key 3': 'value 3' });
    await bot.request('PUT', '/bot_storage', { storage: { 'key 1': 'new value', 'key 4': 'value 4' } });
    expect((await bot.get('/bot_storage')).body.storage).toEqual({
      'key 1': 'new value',
      'key 2': 'value 2',
      'key 3': 'value 3',
      'key 4': 'value 4',
    });
    expectError(
      await bot.get('/bot_storage', { keys: ['key 1', 'nonexistent key'] }),
      400,
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expectError(
      await bot.delete('/bot_storage', { keys: ['key 3', 'nonexistent key'] }),
      400,
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expect(Object.keys((await bot.get('/bot_storage')).body.storage)).toHaveLength(4);
    expectSuccess(await bot.delete('/bot_storage', { keys: ['key 1', 'key 2'] }), 'DELETE', '/bot_storage', {
      undocumented: true,
    });
    expect((await bot.get('/bot_storage')).body.storage).toEqual({ 'key 3': 'value 3', 'key 4': 'value 4' });
    await bot.delete('/bot_storage');
    expect((await bot.get('/bot_storage')).body.storage).toEqual({});
  });

  it("refuses bad values with Zulip's errors", async () => {
    const bot = world.as('default-bot');
    expectError(
      await bot.request('PUT', '/bot_storage', { storage: { foo: [1, 2, 3] } }),
      400,
      'BAD_REQUEST',
      'storage["foo"] is not a string',
    );
    // Zulip's limit is 10,000,000 characters per bot, keys and values together.
    const big = 'x'.repeat(4_000_000);
    for (const key of ['a', 'b']) {
      const put = await bot.request('PUT', '/bot_storage', { storage: { [key]: big } });
      expectSuccess(put, 'PUT', '/bot_storage', { undocumented: true });
    }
    expectError(
      await bot.request('PUT', '/bot_storage', { storage: { c: big } }),
      400,
      'BAD_REQUEST',
      'Request exceeds storage limit by 2000003 characters. The limit is 10000000 characters.',
    );
    // Replacing a value counts only the difference.
    expectSuccess(await bot.request('PUT', '/bot_storage', { storage: { b: big } }), 'PUT', '/bot_storage', {
      undocumented: true,
    });
  });
});

describe('what muting and alert words do to messages', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['muted_user.*', 'alert_words.*']);
  });
  afterAll(() => tap.close());

  /** Other users' sends see a change once messaging has applied its event (their own requests wait for it). */
  const appliedByMessaging = async (type: string, userId: number) => {
    const event = await tap.next((e) => e.type === type && e.payload.user_id === userId);
    await waitHandled(system().serviceUrls.messaging!, event.event_id);
  };

  const send = async (sender: 'cordelia' | 'othello' | 'hamlet', content: string, topic = 'effects') => {
    const response = await world.as(sender).post('/messages', { type: 'stream', to: 'Verona', topic, content });
    expectSuccess(response, 'POST', '/messages');
    return response.body.id as number;
  };
  const flagsOf = async (reader: 'hamlet' | 'othello', id: number) =>
    (await world.as(reader).get(`/messages/${id}`)).body.message.flags as string[];

  it('marks what a muted user sent read, already sent and from then on, telling the muter', async () => {
    const cordelia = world.user('cordelia');
    const before = await send('cordelia', 'sent before the mute');
    expect(await flagsOf('hamlet', before)).not.toContain('read');
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['update_message_flags', 'message'] });
    expectSuccess(
      await world.as('hamlet').post(`/users/me/muted_users/${cordelia.id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
    const read = await queue.next((e) => e.type === 'update_message_flags' && e.messages.includes(before));
    expect(read).toMatchObject({ op: 'add', flag: 'read' });
    expect(await flagsOf('hamlet', before)).toContain('read');

    const after = await send('cordelia', 'sent after the mute');
    const arrived = await queue.next((e) => e.type === 'message' && e.message.id === after);
    expect(arrived.flags).toContain('read');
    expect(await flagsOf('hamlet', after)).toContain('read');
    // Only for the muter.
    expect(await flagsOf('othello', after)).not.toContain('read');

    expectSuccess(
      await world.as('hamlet').delete(`/users/me/muted_users/${cordelia.id}`),
      'DELETE',
      '/users/me/muted_users/{muted_user_id}',
    );
    await appliedByMessaging('muted_user.removed', world.user('hamlet').id);
    const unmuted = await send('cordelia', 'sent after unmuting');
    expect(await flagsOf('hamlet', unmuted)).not.toContain('read');
    await queue.delete();
  });

  it('flags messages that contain one of the reader’s alert words, on sending and on editing', async () => {
    expectSuccess(
      await world.as('othello').post('/users/me/alert_words', { alert_words: JSON.stringify(['Deploy', 'on call']) }),
      'POST',
      '/users/me/alert_words',
    );
    await appliedByMessaging('alert_words.changed', world.user('othello').id);
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['message', 'update_message'] });
    const hit = await send('hamlet', 'We deploy at noon; who is on call?');
    const arrived = await queue.next((e) => e.type === 'message' && e.message.id === hit);
    expect(arrived.flags).toContain('has_alert_word');
    expect(await flagsOf('othello', hit)).toContain('has_alert_word');
    expect(await flagsOf('hamlet', hit)).not.toContain('has_alert_word');
    const miss = await send('hamlet', 'redeployment is not a word match');
    expect(await flagsOf('othello', miss)).not.toContain('has_alert_word');

    const alerts = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'alerted' }],
    });
    expect((alerts.body.messages as { id: number }[]).map((m) => m.id)).toEqual([hit]);

    // Editing re-checks: the word removed clears the flag, the word added sets it.
    expectSuccess(
      await world.as('hamlet').patch(`/messages/${hit}`, { content: 'nothing here' }),
      'PATCH',
      `/messages/${hit}`,
    );
    const cleared = await queue.next((e) => e.type === 'update_message' && e.message_id === hit);
    expect(cleared.flags).not.toContain('has_alert_word');
    expectSuccess(
      await world.as('hamlet').patch(`/messages/${miss}`, { content: 'time to DEPLOY.' }),
      'PATCH',
      `/messages/${miss}`,
    );
    const set = await queue.next((e) => e.type === 'update_message' && e.message_id === miss);
    expect(set.flags).toContain('has_alert_word');
    expect(await flagsOf('othello', miss)).toContain('has_alert_word');
    await queue.delete();
  });
});
