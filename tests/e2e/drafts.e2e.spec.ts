import type { ApiClient, World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { newWorld } from './support/system';

interface Draft {
  id: number;
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function drafts(client: ApiClient): Promise<Draft[]> {
  const response = await client.get('/drafts');
  expectSuccess(response, 'GET', '/drafts');
  expect(response.body.count).toBe(response.body.drafts.length);
  return response.body.drafts as Draft[];
}

async function create(client: ApiClient, list: unknown[]): Promise<number[]> {
  const response = await client.post('/drafts', { drafts: list });
  expectSuccess(response, 'POST', '/drafts');
  return response.body.ids as number[];
}

describe('drafts', () => {
  let world: World;
  let verona: number;
  let events: EventCapture;
  beforeAll(async () => {
    world = await newWorld();
    verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    events = await EventCapture.start(['draft.*'], world.realm.realm_id);
  });
  afterAll(() => events.stop());

  it('creates drafts of each kind, lists them oldest first and announces them', async () => {
    const client = world.as('hamlet');
    const hamlet = world.user('hamlet');
    const othello = world.user('othello');
    const cordelia = world.user('cordelia');
    const ids = await create(client, [
      { type: 'stream', to: [verona], topic: 'plans', content: 'to be', timestamp: 1_700_000_100 },
      { type: 'private', to: [othello.id], topic: '', content: 'a word', timestamp: 1_700_000_000 },
      { type: 'private', to: [othello.id, cordelia.id], topic: 'ignored', content: 'group', timestamp: 1_700_000_200 },
      { type: '', to: [], topic: '', content: 'unaddressed', timestamp: 1_700_000_300 },
      { type: 'private', to: [], topic: '', content: 'nobody yet', timestamp: 1_700_000_400 },
    ]);
    expect(ids).toHaveLength(5);
    expect(await drafts(client)).toEqual([
      { id: ids[1], type: 'private', to: [othello.id], topic: '', content: 'a word', timestamp: 1_700_000_000 },
      { id: ids[0], type: 'stream', to: [verona], topic: 'plans', content: 'to be', timestamp: 1_700_000_100 },
      {
        id: ids[2],
        type: 'private',
        to: [hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b),
        topic: '',
        content: 'group',
        timestamp: 1_700_000_200,
      },
      { id: ids[3], type: '', to: [], topic: '', content: 'unaddressed', timestamp: 1_700_000_300 },
      // A direct draft without recipients is stored unaddressed, as Zulip does.
      { id: ids[4], type: '', to: [], topic: '', content: 'nobody yet', timestamp: 1_700_000_400 },
    ]);
    const added = await events.next('draft.added', (p) => p.user_id === hamlet.id && p.drafts.length === 5);
    expect(added.drafts.map((d: Draft) => d.id)).toEqual(ids);
    // Drafts are personal.
    expect(await drafts(world.as('othello'))).toEqual([]);
  });

  it('fills in the timestamp, truncates long topics and is part of the initial state', async () => {
    const client = world.as('iago');
    const before = Math.floor(Date.now() / 1000);
    const [id] = await create(client, [{ type: 'stream', to: [verona], topic: 'x'.repeat(70), content: 'long topic' }]);
    const [draft] = await drafts(client);
    expect(draft).toMatchObject({ id, topic: `${'x'.repeat(57)}...` });
    expect(draft!.timestamp).toBeGreaterThanOrEqual(before);
    expect(draft!.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const state = await internalRequest(
      'messaging',
      'GET',
      `/users/${world.user('iago').id}/initial-state?fetch_event_types=["drafts"]`,
    );
    expect(state.status).toBe(200);
    expect(state.body.drafts).toEqual([draft]);
    expect(state.body.scheduled_messages).toBeUndefined();
  });

  it.each([
    [{ type: 'stream', to: [1], topic: 't' }, 'Missing \'drafts[1]["content"]\' argument'],
    [{ type: 'stream', to: [1], topic: 't', content: '   ' }, 'drafts[1]["content"] cannot be blank'],
    [{ type: 'channel', to: [1], topic: 't', content: 'x' }, 'Invalid drafts[1]["type"]'],
    [
      { type: 'stream', to: [1], topic: 't', content: 'x', extra: 1 },
      'Argument "extra" at drafts[1]["extra"] is unexpected',
    ],
    [{ type: 'stream', to: [1], topic: 't', content: 'x', timestamp: -5 }, 'Timestamp must not be negative.'],
    [{ type: 'stream', to: [], topic: 't', content: 'x' }, 'Must specify exactly 1 channel ID for channel messages'],
    [
      { type: 'stream', to: [1, 2], topic: 't', content: 'x' },
      'Must specify exactly 1 channel ID for channel messages',
    ],
    [{ type: 'stream', to: [1], topic: 'a\u0000b', content: 'x' }, 'Topic must not contain null bytes'],
    [{ type: 'stream', to: [999_999], topic: 't', content: 'x' }, 'Invalid channel ID'],
    [{ type: 'private', to: [999_999], topic: '', content: 'x' }, 'Invalid user ID 999999'],
    [{ type: '', to: [], topic: '', content: 'a\u0000b' }, 'Message must not contain null bytes'],
  ])('refuses %j with %j and stores nothing (all or nothing)', async (bad, msg) => {
    const client = world.as('prospero');
    const good = { type: '', to: [], topic: '', content: 'fine' };
    expectError(await client.post('/drafts', { drafts: [good, bad] }), 400, 'BAD_REQUEST', msg);
    expect(await drafts(client)).toEqual([]);
  });

  it('answers ids beyond any stored one as unknown, never with a server error', async () => {
    const client = world.as('prospero');
    const draft = { type: '', to: [], topic: '', content: 'x' };
    expectError(await client.patch('/drafts/99999999999', { draft }), 404, 'BAD_REQUEST', 'Draft does not exist');
    expectError(await client.delete('/drafts/99999999999'), 404, 'BAD_REQUEST', 'Draft does not exist');
    expectError(
      await client.post('/drafts', { drafts: [{ type: 'stream', to: [99999999999], topic: 't', content: 'x' }] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await client.post('/drafts', { drafts: [{ type: 'private', to: [99999999999], topic: '', content: 'x' }] }),
      400,
      'BAD_REQUEST',
      'Invalid user ID 99999999999',
    );
  });

  it('refuses a private channel the user cannot see', async () => {
    const iago = world.as('iago');
    expectSuccess(
      await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'drafts-secret' }], invite_only: true }),
      'POST',
      '/users/me/subscriptions',
    );
    const secret = (await iago.get('/get_stream_id', { stream: 'drafts-secret' })).body.stream_id as number;
    expectError(
      await world
        .as('prospero')
        .post('/drafts', { drafts: [{ type: 'stream', to: [secret], topic: 't', content: 'x' }] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect(await create(iago, [{ type: 'stream', to: [secret], topic: 't', content: 'x' }])).toHaveLength(1);
  });

  it('edits a draft and announces the update', async () => {
    const client = world.as('cordelia');
    const cordelia = world.user('cordelia');
    const [id] = await create(client, [{ type: '', to: [], topic: '', content: 'first' }]);
    const response = await client.patch(`/drafts/${id}`, {
      draft: { type: 'stream', to: [verona], topic: 'edited', content: 'second  \n', timestamp: 1_700_000_500.25 },
    });
    expectSuccess(response, 'PATCH', '/drafts/{draft_id}');
    const expected = { id, type: 'stream', to: [verona], topic: 'edited', content: 'second', timestamp: 1_700_000_500 };
    expect(await drafts(client)).toEqual([expected]);
    const updated = await events.next('draft.updated', (p) => p.draft.id === id);
    expect(updated).toEqual({ user_id: cordelia.id, draft: expected });
  });

  it('checks that the draft exists before anything else in it, and then each rule', async () => {
    const client = world.as('cordelia');
    const [id] = await create(client, [{ type: '', to: [], topic: '', content: 'keep me' }]);
    const bad = { type: 'stream', to: [], topic: 't', content: 'x', timestamp: -1 };
    expectError(await client.patch('/drafts/999999', { draft: bad }), 404, 'BAD_REQUEST', 'Draft does not exist');
    // Someone else's draft does not exist for the caller.
    expectError(
      await world.as('othello').patch(`/drafts/${id}`, { draft: bad }),
      404,
      'BAD_REQUEST',
      'Draft does not exist',
    );
    expectError(
      await client.patch(`/drafts/${id}`, { draft: bad }),
      400,
      'BAD_REQUEST',
      'Timestamp must not be negative.',
    );
    expectError(
      await client.patch(`/drafts/${id}`, { draft: { ...bad, timestamp: 5 } }),
      400,
      'BAD_REQUEST',
      'Must specify exactly 1 channel ID for channel messages',
    );
    expectError(
      await client.patch(`/drafts/${id}`, { draft: { type: 'stream', to: [verona], topic: '\u0000', content: 'x' } }),
      400,
      'BAD_REQUEST',
      'Topic must not contain null bytes',
    );
    expectError(
      await client.patch(`/drafts/${id}`, { draft: { type: 'private', to: [424242], topic: '', content: 'x' } }),
      400,
      'BAD_REQUEST',
      'Invalid user ID 424242',
    );
    expectError(
      await client.patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'x', color: 'red' } }),
      400,
      'BAD_REQUEST',
      'Argument "color" at draft["color"] is unexpected',
    );
    expectError(await client.patch(`/drafts/${id}`, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument");
    expectError(
      await client.patch(`/drafts/${id}`, { draft: 'not json' }),
      400,
      'BAD_REQUEST',
      'draft is not valid JSON',
    );
    expect((await drafts(client)).find((d) => d.id === id)?.content).toBe('keep me');
  });

  it('deletes a draft, once, and announces it', async () => {
    const client = world.as('othello');
    const [id] = await create(client, [{ type: '', to: [], topic: '', content: 'bye' }]);
    expectSuccess(await client.delete(`/drafts/${id}`), 'DELETE', '/drafts/{draft_id}');
    expect(await drafts(client)).toEqual([]);
    expect(await events.next('draft.removed', (p) => p.draft_id === id)).toEqual({
      user_id: world.user('othello').id,
      draft_id: id,
    });
    expectError(await client.delete(`/drafts/${id}`), 404, 'BAD_REQUEST', 'Draft does not exist');
  });

  it('with synchronization off refuses every draft endpoint and has deleted the stored drafts', async () => {
    const client = world.as('desdemona');
    const [id] = await create(client, [{ type: '', to: [], topic: '', content: 'will go' }]);
    expectSuccess(await client.patch('/settings', { enable_drafts_synchronization: false }), 'PATCH', '/settings');
    // The setting reaches messaging by event.
    const deadline = Date.now() + 20_000;
    let response = await client.get('/drafts');
    while (response.status === 200 && Date.now() < deadline) {
      await sleep(50);
      response = await client.get('/drafts');
    }
    const off = 'User has disabled synchronizing drafts.';
    expectError(response, 400, 'BAD_REQUEST', off);
    expectError(await client.post('/drafts', { drafts: [] }), 400, 'BAD_REQUEST', off);
    // Checked before the parameters, as Zulip's draft_endpoint wraps the view.
    expectError(await client.post('/drafts', {}), 400, 'BAD_REQUEST', off);
    expectError(
      await client.patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'x' } }),
      400,
      'BAD_REQUEST',
      off,
    );
    expectError(await client.delete(`/drafts/${id}`), 400, 'BAD_REQUEST', off);

    expectSuccess(await client.patch('/settings', { enable_drafts_synchronization: true }), 'PATCH', '/settings');
    response = await client.get('/drafts');
    while (response.status !== 200 && Date.now() < deadline + 20_000) {
      await sleep(50);
      response = await client.get('/drafts');
    }
    expectSuccess(response, 'GET', '/drafts');
    expect(response.body.drafts).toEqual([]);
  });
});
