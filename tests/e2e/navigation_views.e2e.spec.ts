import type { ApiClient, World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { initialState } from './support/internal';
import { newWorld } from './support/system';

const views = async (client: ApiClient) => {
  const response = await client.get('/navigation_views');
  expectSuccess(response, 'GET', '/navigation_views');
  return response.body.navigation_views as { fragment: string; is_pinned: boolean; name: string | null }[];
};

describe('POST /navigation_views', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['navigation_view.*']);
  });
  afterAll(() => tap.close());

  it('adds built-in view settings and custom views, lists them and announces each', async () => {
    const hamlet = world.user('hamlet');
    const client = world.as('hamlet');
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: false }),
      'POST',
      '/navigation_views',
    );
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }),
      'POST',
      '/navigation_views',
    );
    expect(await views(client)).toEqual([
      { fragment: 'narrow/is/starred', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' },
    ]);
    // Views are personal.
    expect(await views(world.as('cordelia'))).toEqual([]);
    expect((await initialState(hamlet.id)).navigation_views).toHaveLength(2);
    const added = await tap.next(
      (e) => e.type === 'navigation_view.added' && e.payload.navigation_view.fragment === 'narrow/is/alerted',
    );
    expect(added.payload).toEqual({
      user_id: hamlet.id,
      realm_id: world.realm.realm_id,
      navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' },
    });
  });

  it.each([
    [{ fragment: 'inbox', is_pinned: true, name: 'My inbox' }, 'Built-in views cannot have a custom name.'],
    [{ fragment: 'narrow/channel/7', is_pinned: true }, 'Custom views must have a valid name.'],
    [{ fragment: '   ', is_pinned: true, name: 'x' }, 'fragment cannot be blank'],
    [{ fragment: 'narrow/channel/7', is_pinned: true, name: '  ' }, 'name cannot be blank'],
    [{ fragment: 'narrow/channel/7', name: 'Seven' }, "Missing 'is_pinned' argument"],
    [{ fragment: 'narrow/channel/7', is_pinned: 'yes', name: 'Seven' }, 'is_pinned is not valid JSON'],
  ])('refuses %j with %j', async (params, msg) => {
    const response = await world.as('othello').post('/navigation_views', params);
    expect(response.status).toBe(400);
    expect(response.body.msg).toBe(msg);
    expect(await views(world.as('othello'))).toEqual([]);
  });

  it('refuses a fragment or a name that is already used', async () => {
    const client = world.as('prospero');
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: true, name: 'One' }),
      'POST',
      '/navigation_views',
    );
    expectError(
      await client.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: false, name: 'Uno' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectError(
      await client.post('/navigation_views', { fragment: 'narrow/channel/2', is_pinned: false, name: 'One' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'recent', is_pinned: true }),
      'POST',
      '/navigation_views',
    );
    expectError(
      await client.post('/navigation_views', { fragment: 'recent', is_pinned: false }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['navigation_view.updated']);
    const client = world.as('hamlet');
    for (const view of [
      { fragment: 'narrow/has/reaction/sender/me', is_pinned: true },
      { fragment: 'narrow/channel/12-Denmark/topic/castle', is_pinned: false, name: 'Castle' },
      { fragment: 'narrow/dm/4-othello', is_pinned: false, name: 'Othello' },
    ]) {
      expectSuccess(await client.post('/navigation_views', view), 'POST', '/navigation_views');
    }
  });
  afterAll(() => tap.close());

  it('updates is_pinned and the name of a view whose fragment has slashes, and announces only what changed', async () => {
    const hamlet = world.user('hamlet');
    const client = world.as('hamlet');
    const response = await client.patch('/navigation_views/narrow/channel/12-Denmark/topic/castle', {
      is_pinned: true,
      name: 'Elsinore',
    });
    expectSuccess(response, 'PATCH', '/navigation_views/fragment');
    expect(await views(client)).toContainEqual({
      fragment: 'narrow/channel/12-Denmark/topic/castle',
      is_pinned: true,
      name: 'Elsinore',
    });
    const event = await tap.next((e) => e.payload.fragment === 'narrow/channel/12-Denmark/topic/castle');
    expect(event.payload).toEqual({
      user_id: hamlet.id,
      realm_id: world.realm.realm_id,
      fragment: 'narrow/channel/12-Denmark/topic/castle',
      data: { is_pinned: true, name: 'Elsinore' },
    });
    expectSuccess(
      await client.patch('/navigation_views/narrow/has/reaction/sender/me', { is_pinned: false }),
      'PATCH',
      '/navigation_views/fragment',
    );
    const unpinned = await tap.next((e) => e.payload.fragment === 'narrow/has/reaction/sender/me');
    expect(unpinned.payload.data).toEqual({ is_pinned: false });
    expect(await views(client)).toContainEqual({
      fragment: 'narrow/has/reaction/sender/me',
      is_pinned: false,
      name: null,
    });
  });

  it('accepts a percent-encoded fragment', async () => {
    const client = world.as('hamlet');
    expectSuccess(
      await client.patch('/navigation_views/narrow%2Fdm%2F4-othello', { is_pinned: true }),
      'PATCH',
      '/navigation_views/fragment',
    );
    expect(await views(client)).toContainEqual({ fragment: 'narrow/dm/4-othello', is_pinned: true, name: 'Othello' });
  });

  it('refuses a name for a built-in view', async () => {
    const response = await world
      .as('hamlet')
      .patch('/navigation_views/narrow/has/reaction/sender/me', { name: 'Reacted' });
    expectError(response, 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
  });

  it('refuses a name another view has', async () => {
    const response = await world.as('hamlet').patch('/navigation_views/narrow/dm/4-othello', { name: 'Elsinore' });
    expectError(response, 400, 'BAD_REQUEST', 'Navigation view already exists.');
    expect(await views(world.as('hamlet'))).toContainEqual({
      fragment: 'narrow/dm/4-othello',
      is_pinned: true,
      name: 'Othello',
    });
  });

  it('refuses a blank name', async () => {
    expectError(
      await world.as('hamlet').patch('/navigation_views/narrow/dm/4-othello', { name: ' ' }),
      400,
      'BAD_REQUEST',
      'name cannot be blank',
    );
  });

  it("answers 404 NOT_FOUND for a fragment with no view, including built-ins never configured and other users' views", async () => {
    for (const fragment of ['narrow/is/nothing', 'inbox', 'narrow/channel/12-Denmark/topic/castle']) {
      const client = fragment === 'narrow/channel/12-Denmark/topic/castle' ? world.as('cordelia') : world.as('hamlet');
      expectError(
        await client.patch(`/navigation_views/${fragment}`, { is_pinned: true }),
        404,
        'NOT_FOUND',
        'Navigation view does not exist.',
      );
    }
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['navigation_view.removed']);
  });
  afterAll(() => tap.close());

  it('removes a view and announces it; a second removal is 404 NOT_FOUND', async () => {
    const client = world.as('iago');
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'narrow/channel/3/topic/x', is_pinned: true, name: 'X' }),
      'POST',
      '/navigation_views',
    );
    const response = await client.delete('/navigation_views/narrow/channel/3/topic/x');
    expectSuccess(response, 'DELETE', '/navigation_views/fragment');
    expect(await views(client)).toEqual([]);
    const event = await tap.next((e) => e.payload.fragment === 'narrow/channel/3/topic/x');
    expect(event.payload).toEqual({
      user_id: world.user('iago').id,
      realm_id: world.realm.realm_id,
      fragment: 'narrow/channel/3/topic/x',
    });
    expectError(
      await client.delete('/navigation_views/narrow/channel/3/topic/x'),
      404,
      'NOT_FOUND',
      'Navigation view does not exist.',
    );
    // The name is free again.
    expectSuccess(
      await client.post('/navigation_views', { fragment: 'narrow/channel/4', is_pinned: true, name: 'X' }),
      'POST',
      '/navigation_views',
    );
  });
});
