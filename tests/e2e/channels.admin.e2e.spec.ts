import { randomBytes } from 'node:crypto';
import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { eventually } from './support/groups';
import { expectError, expectSuccess } from './support/expect';
import { channelIds, createLink, logIn, STRONG_PASSWORD, submitSignUp } from './support/invitations';
import { newWorld } from './support/system';
import { extraAccounts } from './support/world-facts';

// Measured: about 20 s on the 2-core machine (one organization for the file; the admin CLI creates one account).
jest.setTimeout(60_000);

let world: World;
let ids: Awaited<ReturnType<typeof channelIds>>;
beforeAll(async () => {
  world = await newWorld();
  ids = await channelIds(world.as('iago'));
});

async function defaultIds(client: ApiClient): Promise<number[]> {
  const response = await client.get('/streams', { include_default: true });
  expectSuccess(response, 'GET', '/streams');
  return (response.body.streams as { stream_id: number; is_default: boolean }[])
    .filter((s) => s.is_default)
    .map((s) => s.stream_id)
    .sort((a, b) => a - b);
}

async function isSubscribed(client: ApiClient, userId: number, streamId: number): Promise<boolean> {
  const response = await client.get(`/users/${userId}/subscriptions/${streamId}`);
  expectSuccess(response, 'GET', '/users/{user_id}/subscriptions/{stream_id}');
  return response.body.is_subscribed as boolean;
}

async function createChannel(client: ApiClient, name: string, params: Record<string, unknown> = {}): Promise<number> {
  const response = await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  expectSuccess(response, 'POST', '/users/me/subscriptions');
  const found = await client.get('/get_stream_id', { stream: name });
  return found.body.stream_id as number;
}

describe('default channels (/default_streams)', () => {
  it('an administrator adds and removes one; members but guests hear of it; /register and GET /streams show it', async () => {
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['default_streams', 'message'] });
    const polonius = await EventQueue.register(world.as('polonius'), { event_types: ['default_streams', 'message'] });
    expectSuccess(
      await world.as('iago').post('/default_streams', { stream_id: ids.Denmark }),
      'POST',
      '/default_streams',
    );
    expect(await hamlet.next((e) => e.type === 'default_streams')).toMatchObject({ default_streams: [ids.Denmark] });
    // Adding it again changes nothing and says nothing.
    expectSuccess(
      await world.as('iago').post('/default_streams', { stream_id: ids.Denmark }),
      'POST',
      '/default_streams',
    );
    expect(await defaultIds(world.as('hamlet'))).toEqual([ids.Denmark]);
    const state = await world.as('othello').post('/register', { fetch_event_types: ['default_streams'] });
    expect(state.body.realm_default_streams).toEqual([ids.Denmark]);

    expectSuccess(
      await world.as('desdemona').delete('/default_streams', { stream_id: ids.Denmark }),
      'DELETE',
      '/default_streams',
    );
    expect(await hamlet.next((e) => e.type === 'default_streams' && e.default_streams.length === 0)).toBeTruthy();
    expect(await defaultIds(world.as('hamlet'))).toEqual([]);
    // A later message reaches the guest; the default-channel events before it never did.
    await world.as('iago').post('/messages', { type: 'direct', to: [world.user('polonius').id], content: 'after' });
    await polonius.next((e) => e.type === 'message');
    expect(polonius.seen.filter((e) => e.type === 'default_streams')).toEqual([]);
    expect(hamlet.seen.filter((e) => e.type === 'default_streams')).toHaveLength(2);
  });

  it('refuses members, private channels, unknown channels and a missing stream_id', async () => {
    expectError(
      await world.as('hamlet').post('/default_streams', { stream_id: ids.Rome }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('shiva').delete('/default_streams', { stream_id: ids.Rome }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    const secret = await createChannel(world.as('iago'), 'default-secret', { invite_only: true });
    expectError(
      await world.as('iago').post('/default_streams', { stream_id: secret }),
      400,
      'BAD_REQUEST',
      'Private channels cannot be made default.',
    );
    expectError(
      await world.as('iago').post('/default_streams', { stream_id: 99_999_999 }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await world.as('iago').post('/default_streams', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'stream_id' argument",
    );
    expectError(
      await world.as('iago').post('/default_streams', { stream_id: 'x' }),
      400,
      'BAD_REQUEST',
      'stream_id is not valid JSON',
    );
    expect(await defaultIds(world.as('iago'))).toEqual([]);
  });

  it('follows channel creation, PATCH /streams and archiving', async () => {
    const created = await createChannel(world.as('iago'), 'default-born', { is_default_stream: true });
    expect(await defaultIds(world.as('hamlet'))).toEqual([created]);
    expectError(
      await world.as('iago').patch(`/streams/${created}`, { is_private: true }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
    expectSuccess(
      await world.as('iago').patch(`/streams/${ids.Venice}`, { is_default_stream: true }),
      'PATCH',
      '/streams/{stream_id}',
    );
    expect(await defaultIds(world.as('hamlet'))).toEqual([ids.Venice, created].sort((a, b) => a - b));
    // The creator administers the channel, but only organization administrators choose default channels.
    const own = await createChannel(world.as('hamlet'), 'hamlet-own');
    expectError(
      await world.as('hamlet').patch(`/streams/${own}`, { is_default_stream: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectSuccess(await world.as('iago').delete(`/streams/${created}`), 'DELETE', '/streams/{stream_id}');
    expectSuccess(
      await world.as('iago').patch(`/streams/${ids.Venice}`, { is_default_stream: false }),
      'PATCH',
      '/streams/{stream_id}',
    );
    expect(await defaultIds(world.as('hamlet'))).toEqual([]);
  });

  it('new members are subscribed to them: accounts created directly, and sign-ups whose invitation includes them', async () => {
    expectSuccess(
      await world.as('iago').post('/default_streams', { stream_id: ids.Scotland }),
      'POST',
      '/default_streams',
    );
    const [account] = await extraAccounts(world, 1);
    await eventually(async () => expect(await isSubscribed(world.as('iago'), account!.id, ids.Scotland)).toBe(true));
    expect(await isSubscribed(world.as('iago'), account!.id, ids.Rome)).toBe(false);

    const invited = async (include: boolean) => {
      const { link } = await createLink(world.as('iago'), {
        stream_ids: [ids.Rome],
        include_realm_default_subscriptions: include,
      });
      const email = `joiner-${randomBytes(4).toString('hex')}@example.com`;
      const page = await submitSignUp(link, { full_name: 'Joiner', email, password: STRONG_PASSWORD });
      expect(page.status).toBe(200);
      const client = await logIn(world, email, STRONG_PASSWORD);
      const subs = await client.get('/users/me/subscriptions');
      return (subs.body.subscriptions as { stream_id: number }[]).map((s) => s.stream_id).sort((a, b) => a - b);
    };
    expect(await invited(true)).toEqual([ids.Scotland, ids.Rome].sort((a, b) => a - b));
    expect(await invited(false)).toEqual([ids.Rome]);
    expectSuccess(
      await world.as('iago').delete('/default_streams', { stream_id: ids.Scotland }),
      'DELETE',
      '/default_streams',
    );
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('says whether a user is subscribed, for channels the caller may see', async () => {
    expect(await isSubscribed(world.as('hamlet'), world.user('othello').id, ids.Verona)).toBe(true);
    expect(await isSubscribed(world.as('hamlet'), world.user('polonius').id, ids.Denmark)).toBe(false);
    const secret = await createChannel(world.as('othello'), 'status-secret', { invite_only: true });
    expectError(
      await world.as('hamlet').get(`/users/${world.user('othello').id}/subscriptions/${secret}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    // Administrators see every channel's subscribers.
    expect(await isSubscribed(world.as('iago'), world.user('othello').id, secret)).toBe(true);
    expectError(
      await world.as('hamlet').get(`/users/99999999/subscriptions/${ids.Verona}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await world.as('hamlet').get(`/users/${world.user('default-bot').id}/subscriptions/${ids.Verona}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});

describe('PATCH /users/me/subscriptions', () => {
  it('subscribes and unsubscribes in one request, with the events of both', async () => {
    const cordelia = await EventQueue.register(world.as('cordelia'), { event_types: ['subscription'] });
    const response = await world.as('cordelia').patch('/users/me/subscriptions', {
      add: [{ name: 'patch-new', color: '#e79ab5' }, { name: 'Verona' }],
      delete: ['Rome'],
    });
    expectSuccess(response, 'PATCH', '/users/me/subscriptions');
    const cordeliaId = String(world.user('cordelia').id);
    expect(response.body).toMatchObject({
      subscribed: { [cordeliaId]: ['patch-new'] },
      already_subscribed: { [cordeliaId]: ['Verona'] },
      removed: ['Rome'],
      not_removed: [],
    });
    expect(await cordelia.next((e) => e.op === 'add')).toMatchObject({
      subscriptions: [{ name: 'patch-new', color: '#e79ab5' }],
    });
    expect(await cordelia.next((e) => e.op === 'remove')).toMatchObject({ subscriptions: [{ stream_id: ids.Rome }] });
    const again = await world.as('cordelia').patch('/users/me/subscriptions', { delete: ['Rome'] });
    expect(again.body).toMatchObject({ subscribed: {}, already_subscribed: {}, removed: [], not_removed: ['Rome'] });
  });

  it('refuses an empty request, unknown channels to leave (subscribing to nothing) and guests', async () => {
    expectError(
      await world.as('cordelia').patch('/users/me/subscriptions', {}),
      400,
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    expectError(
      await world
        .as('cordelia')
        .patch('/users/me/subscriptions', { add: [{ name: 'never-made' }], delete: ['nowhere'] }),
      400,
      'BAD_REQUEST',
      'Channel(s) (nowhere) do not exist',
    );
    expectError(
      await world.as('cordelia').get('/get_stream_id', { stream: 'never-made' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'never-made'",
    );
    expectError(
      await world.as('polonius').patch('/users/me/subscriptions', { delete: ['Verona'] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await world.as('cordelia').patch('/users/me/subscriptions', { add: 'x' }),
      400,
      'BAD_REQUEST',
      'add is not valid JSON',
    );
  });
});

describe('GET /streams/{stream_id}/email_address', () => {
  it('answers the empty address of a server without an email gateway, after Zulip’s checks', async () => {
    const response = await world.as('hamlet').get(`/streams/${ids.Verona}/email_address`);
    expectSuccess(response, 'GET', '/streams/{stream_id}/email_address');
    expect(response.body.email).toBe('');
    const bot = world.user('default-bot').id;
    expectSuccess(
      await world.as('iago').get(`/streams/${ids.Verona}/email_address`, { sender_id: bot }),
      'GET',
      '/streams/{stream_id}/email_address',
    );
    expectError(
      await world.as('hamlet').get(`/streams/${ids.Verona}/email_address`, { sender_id: bot }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('hamlet').get(`/streams/${ids.Verona}/email_address`, { sender_id: world.user('othello').id }),
      400,
      'BAD_REQUEST',
      'No such bot',
    );
    expectError(
      await world.as('polonius').get(`/streams/${ids.Denmark}/email_address`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });
});

describe('POST /streams/{stream_id}/delete_topic', () => {
  it('deletes every message of the topic, tells its readers, and clears visibility policies', async () => {
    const othello = await EventQueue.register(world.as('othello'), {
      event_types: ['delete_message', 'user_topic'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const sent: number[] = [];
    for (const content of ['one', 'two', 'three']) {
      const r = await world.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'doomed', content });
      sent.push(r.body.id as number);
    }
    const kept = (
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'kept', content: 'k' })
    ).body.id as number;
    await world.as('othello').post('/user_topics', { stream_id: ids.Denmark, topic: 'doomed', visibility_policy: 3 });
    await othello.next((e) => e.type === 'user_topic' && e.visibility_policy === 3);

    const response = await world.as('iago').post(`/streams/${ids.Denmark}/delete_topic`, { topic_name: 'doomed' });
    expectSuccess(response, 'POST', '/streams/{stream_id}/delete_topic');
    expect(response.body.complete).toBe(true);
    const deleted = await othello.next((e) => e.type === 'delete_message');
    expect((deleted.message_ids as number[]).sort((a, b) => a - b)).toEqual(sent);
    expect(await othello.next((e) => e.type === 'user_topic' && e.visibility_policy === 0)).toMatchObject({
      stream_id: ids.Denmark,
      topic_name: 'doomed',
    });
    const left = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: ids.Denmark }],
    });
    const remaining = (left.body.messages as { id: number }[]).map((m) => m.id);
    expect(remaining).toContain(kept);
    for (const id of sent) expect(remaining).not.toContain(id);
  });

  it('refuses non-administrators, unknown channels and a missing topic_name', async () => {
    await world.as('hamlet').post('/messages', { type: 'stream', to: 'Rome', topic: 'safe', content: 'stays' });
    expectError(
      await world.as('shiva').post(`/streams/${ids.Rome}/delete_topic`, { topic_name: 'safe' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('iago').post('/streams/99999999/delete_topic', { topic_name: 'safe' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await world.as('iago').post(`/streams/${ids.Rome}/delete_topic`, {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'topic_name' argument",
    );
    const topics = await world.as('hamlet').get(`/users/me/${ids.Rome}/topics`);
    expect((topics.body.topics as { name: string }[]).map((t) => t.name)).toContain('safe');
  });
});

describe('channel folders (/channel_folders)', () => {
  interface Folder {
    id: number;
    name: string;
    description: string;
    rendered_description: string;
    creator_id: number;
    date_created: number;
    is_archived: boolean;
    order: number;
  }
  const folders = async (client: ApiClient, includeArchived = false): Promise<Folder[]> => {
    const response = await client.get('/channel_folders', { include_archived: includeArchived });
    expectSuccess(response, 'GET', '/channel_folders');
    return response.body.channel_folders as Folder[];
  };
  const create = async (name: string, description = ''): Promise<number> => {
    const response = await world.as('iago').post('/channel_folders/create', { name, description });
    expectSuccess(response, 'POST', '/channel_folders/create');
    return response.body.channel_folder_id as number;
  };

  it('administrators create, rename, describe, reorder and archive folders; every member hears of it', async () => {
    const polonius = await EventQueue.register(world.as('polonius'), { event_types: ['channel_folder'] });
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['stream'] });
    const frontend = await create('Frontend', 'Channels for **frontend** work');
    const added = await polonius.next((e) => e.type === 'channel_folder' && e.op === 'add');
    expect(added.channel_folder).toMatchObject({
      id: frontend,
      name: 'Frontend',
      rendered_description: '<p>Channels for <strong>frontend</strong> work</p>',
      creator_id: world.user('iago').id,
      is_archived: false,
    });
    const backend = await create('Backend');
    expect((await folders(world.as('hamlet'))).map((f) => f.id)).toEqual([frontend, backend]);

    expectSuccess(
      await world.as('iago').patch(`/channel_folders/${frontend}`, { name: 'Web', description: 'Browsers' }),
      'PATCH',
      '/channel_folders/{channel_folder_id}',
    );
    expect(await polonius.next((e) => e.op === 'update' && e.data.name === 'Web')).toMatchObject({
      channel_folder_id: frontend,
      data: { name: 'Web' },
    });
    expect(await polonius.next((e) => e.op === 'update' && 'description' in e.data)).toMatchObject({
      data: { description: 'Browsers', rendered_description: '<p>Browsers</p>' },
    });

    expectSuccess(
      await world.as('iago').patch('/channel_folders', { order: [backend, frontend] }),
      'PATCH',
      '/channel_folders',
    );
    expect(await polonius.next((e) => e.op === 'reorder')).toMatchObject({ order: [backend, frontend] });
    expect((await folders(world.as('hamlet'))).map((f) => [f.id, f.order])).toEqual([
      [backend, 0],
      [frontend, 1],
    ]);

    // A channel in a folder keeps it from being archived.
    expectSuccess(
      await world.as('iago').patch(`/streams/${ids.Venice}`, { folder_id: backend }),
      'PATCH',
      '/streams/{stream_id}',
    );
    expect(await hamlet.next((e) => e.type === 'stream' && e.property === 'folder_id')).toMatchObject({
      stream_id: ids.Venice,
      value: backend,
    });
    expectError(
      await world.as('iago').patch(`/channel_folders/${backend}`, { is_archived: true }),
      400,
      'BAD_REQUEST',
      'You need to remove all the channels from this folder to archive it.',
    );
    expectSuccess(
      await world.as('iago').patch(`/streams/${ids.Venice}`, { folder_id: null }),
      'PATCH',
      '/streams/{stream_id}',
    );
    expectSuccess(
      await world.as('iago').patch(`/channel_folders/${backend}`, { is_archived: true }),
      'PATCH',
      '/channel_folders/{channel_folder_id}',
    );
    expect((await folders(world.as('hamlet'))).map((f) => f.id)).toEqual([frontend]);
    expect((await folders(world.as('hamlet'), true)).map((f) => f.id)).toEqual([backend, frontend]);
    const state = await world.as('hamlet').post('/register', { fetch_event_types: ['channel_folders'] });
    expect((state.body.channel_folders as Folder[]).map((f) => [f.id, f.is_archived])).toEqual([
      [backend, true],
      [frontend, false],
    ]);

    // Channels can be created in a folder.
    const inFolder = await createChannel(world.as('iago'), 'web-stuff', { folder_id: frontend });
    const stream = await world.as('iago').get(`/streams/${inFolder}`);
    expect(stream.body.stream.folder_id).toBe(frontend);
  });

  it('refuses members, duplicate or empty names, unknown folders and incomplete orders', async () => {
    expectError(
      await world.as('hamlet').post('/channel_folders/create', { name: 'Mine', description: '' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    const id = await create('Ops');
    expectError(
      await world.as('iago').post('/channel_folders/create', { name: 'ops', description: '' }),
      400,
      'BAD_REQUEST',
      "Channel folder 'ops' already exists",
    );
    expectError(
      await world.as('iago').post('/channel_folders/create', { name: '  ', description: '' }),
      400,
      'BAD_REQUEST',
      "Channel folder name can't be empty.",
    );
    expectError(
      await world.as('iago').post('/channel_folders/create', { name: 'x'.repeat(61), description: '' }),
      400,
      'BAD_REQUEST',
      'name is too long (limit: 60 characters)',
    );
    expectError(
      await world.as('hamlet').patch(`/channel_folders/${id}`, { name: 'Mine' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('iago').patch('/channel_folders/99999999', { name: 'Gone' }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    expectError(
      await world.as('iago').patch('/channel_folders', { order: [id] }),
      400,
      'BAD_REQUEST',
      'Invalid order mapping.',
    );
    expectError(
      await world.as('iago').patch(`/streams/${ids.Venice}`, { folder_id: 99_999_999 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    expectError(
      await world
        .as('iago')
        .post('/users/me/subscriptions', { subscriptions: [{ name: 'foldered' }], folder_id: 99_999_999 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
  });
});
