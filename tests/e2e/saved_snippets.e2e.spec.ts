import type { ApiClient, World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { newWorld } from './support/system';

interface Snippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

async function snippets(client: ApiClient): Promise<Snippet[]> {
  const response = await client.get('/saved_snippets');
  expectSuccess(response, 'GET', '/saved_snippets');
  return response.body.saved_snippets as Snippet[];
}

async function create(client: ApiClient, title: string, content: string): Promise<number> {
  const response = await client.post('/saved_snippets', { title, content });
  expectSuccess(response, 'POST', '/saved_snippets');
  return response.body.saved_snippet_id as number;
}

describe('saved snippets', () => {
  let world: World;
  let events: EventCapture;
  beforeAll(async () => {
    world = await newWorld();
    events = await EventCapture.start(['saved_snippet.*'], world.realm.realm_id);
  });
  afterAll(() => events.stop());

  it('creates snippets (stripped), lists them, announces them and shows them in the initial state', async () => {
    const client = world.as('hamlet');
    const hamlet = world.user('hamlet');
    const before = Math.floor(Date.now() / 1000);
    const first = await create(client, '  Greeting ', ' Hello **there**\n');
    const second = await create(client, 'Bye', 'Goodbye');
    const list = await snippets(client);
    expect(list).toEqual([
      { id: first, title: 'Greeting', content: 'Hello **there**', date_created: expect.any(Number) },
      { id: second, title: 'Bye', content: 'Goodbye', date_created: expect.any(Number) },
    ]);
    expect(list[0]!.date_created).toBeGreaterThanOrEqual(before);
    expect(await events.next('saved_snippet.added', (p) => p.saved_snippet.id === first)).toEqual({
      user_id: hamlet.id,
      saved_snippet: list[0],
    });
    expect(await snippets(world.as('othello'))).toEqual([]);
    const state = await internalRequest(
      'messaging',
      'GET',
      `/users/${hamlet.id}/initial-state?fetch_event_types=["saved_snippets"]`,
    );
    expect(state.body.saved_snippets).toEqual(list);
  });

  it.each([
    [{ title: '', content: 'x' }, 'Title cannot be empty.'],
    [{ title: '   ', content: 'x' }, 'Title cannot be empty.'],
    [{ title: 't'.repeat(61), content: 'x' }, 'title is too long (limit: 60 characters)'],
    [{ content: 'x' }, "Missing 'title' argument"],
    [{ title: 'x' }, "Missing 'content' argument"],
  ])('refuses to create %j: %s', async (params, msg) => {
    const response = await world.as('cordelia').post('/saved_snippets', params);
    expect({ status: response.status, msg: response.body.msg, result: response.body.result }).toEqual({
      status: 400,
      msg,
      result: 'error',
    });
    expect(await snippets(world.as('cordelia'))).toEqual([]);
  });

  it('accepts a title of exactly 60 characters', async () => {
    const id = await create(world.as('iago'), 't'.repeat(60), 'body');
    expect((await snippets(world.as('iago'))).find((s) => s.id === id)?.title).toBe('t'.repeat(60));
  });

  it('edits the title, the content or both, and announces each edit', async () => {
    const client = world.as('othello');
    const id = await create(client, 'Old', 'old text');
    expectSuccess(
      await client.patch(`/saved_snippets/${id}`, { title: 'New' }),
      'PATCH',
      '/saved_snippets/{saved_snippet_id}',
    );
    expect(await snippets(client)).toMatchObject([{ id, title: 'New', content: 'old text' }]);
    expect(await events.next('saved_snippet.updated', (p) => p.saved_snippet.title === 'New')).toMatchObject({
      user_id: world.user('othello').id,
      saved_snippet: { id, title: 'New', content: 'old text' },
    });
    expectSuccess(
      await client.patch(`/saved_snippets/${id}`, { title: 'Newer', content: 'new text' }),
      'PATCH',
      '/saved_snippets/{saved_snippet_id}',
    );
    expect(await snippets(client)).toMatchObject([{ id, title: 'Newer', content: 'new text' }]);
  });

  it('treats an edit without fields as a successful no-op that announces nothing', async () => {
    const client = world.as('prospero');
    const id = await create(client, 'Same', 'same');
    expectSuccess(await client.patch(`/saved_snippets/${id}`, {}), 'PATCH', '/saved_snippets/{saved_snippet_id}');
    expect(await snippets(client)).toMatchObject([{ id, title: 'Same', content: 'same' }]);
    // A later real edit is announced; nothing came before it for the no-op.
    expectSuccess(
      await client.patch(`/saved_snippets/${id}`, { content: 'changed' }),
      'PATCH',
      '/saved_snippets/{saved_snippet_id}',
    );
    await events.next('saved_snippet.updated', (p) => p.saved_snippet.id === id);
    expect(
      events.events.filter((e) => e.type === 'saved_snippet.updated' && e.payload.saved_snippet.id === id),
    ).toHaveLength(1);
  });

  it('refuses edits of unknown or foreign snippets and bad titles', async () => {
    const client = world.as('polonius');
    const id = await create(client, 'Mine', 'mine');
    expectError(
      await client.patch('/saved_snippets/999999', { title: 'x' }),
      404,
      'BAD_REQUEST',
      'Saved snippet does not exist.',
    );
    expectError(
      await world.as('hamlet').patch(`/saved_snippets/${id}`, { title: 'x' }),
      404,
      'BAD_REQUEST',
      'Saved snippet does not exist.',
    );
    expectError(
      await client.patch(`/saved_snippets/${id}`, { title: '' }),
      400,
      'BAD_REQUEST',
      'Title cannot be empty.',
    );
    expectError(
      await client.patch(`/saved_snippets/${id}`, { title: 'y'.repeat(61) }),
      400,
      'BAD_REQUEST',
      'title is too long (limit: 60 characters)',
    );
    expect(await snippets(client)).toMatchObject([{ id, title: 'Mine', content: 'mine' }]);
  });

  it('answers ids beyond any stored one as unknown, never with a server error', async () => {
    const client = world.as('polonius');
    const missing = 'Saved snippet does not exist.';
    expectError(await client.patch('/saved_snippets/99999999999', { title: 'x' }), 404, 'BAD_REQUEST', missing);
    expectError(await client.delete('/saved_snippets/99999999999'), 404, 'BAD_REQUEST', missing);
  });

  it('deletes a snippet once and announces it', async () => {
    const client = world.as('aaron');
    const id = await create(client, 'Temp', 'temp');
    expectError(
      await world.as('hamlet').delete(`/saved_snippets/${id}`),
      404,
      'BAD_REQUEST',
      'Saved snippet does not exist.',
    );
    expectSuccess(await client.delete(`/saved_snippets/${id}`), 'DELETE', '/saved_snippets/{saved_snippet_id}');
    expect(await snippets(client)).toEqual([]);
    expect(await events.next('saved_snippet.removed', (p) => p.saved_snippet_id === id)).toEqual({
      user_id: world.user('aaron').id,
      saved_snippet_id: id,
    });
    expectError(await client.delete(`/saved_snippets/${id}`), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
  });
});
