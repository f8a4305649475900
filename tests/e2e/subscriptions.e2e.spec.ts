import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('GET /users/me/subscriptions', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('lists the development channels with Zulip subscription objects', async () => {
    const response = await world.as('hamlet').get('/users/me/subscriptions', { include_subscribers: true });
    expectSuccess(response, 'GET', '/users/me/subscriptions');
    const subs = response.body.subscriptions as Record<string, any>[];
    expect(subs.map((s) => s.name).sort()).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona']);
    const verona = subs.find((s) => s.name === 'Verona')!;
    expect(verona).toMatchObject({
      invite_only: false,
      is_muted: false,
      in_home_view: true,
      description: 'The Verona channel.',
    });
    expect(verona.subscribers).toContain(world.user('polonius').id);
    expect(verona.subscriber_count).toBe(10);
    expect(verona.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('gives polonius (guest) only Verona', async () => {
    const response = await world.as('polonius').get('/users/me/subscriptions');
    expectSuccess(response, 'GET', '/users/me/subscriptions');
    expect((response.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(['Verona']);
  });
});

describe('POST /users/me/subscriptions', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('creates a channel and subscribes the caller', async () => {
    const response = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'hamlet-new', description: 'Mine' }] });
    expectSuccess(response, 'POST', '/users/me/subscriptions');
    expect(response.body.subscribed).toEqual({ [String(world.user('hamlet').id)]: ['hamlet-new'] });
    expect(response.body.already_subscribed).toEqual({});
    const again = await world.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'HAMLET-new' }] });
    expectSuccess(again, 'POST', '/users/me/subscriptions');
    expect(again.body.already_subscribed).toEqual({ [String(world.user('hamlet').id)]: ['hamlet-new'] });
  });

  it('refuses guests', async () => {
    const response = await world
      .as('polonius')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
    expectError(response, 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });

  it('refuses private channels the caller cannot access', async () => {
    await world.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
    const response = await world.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] });
    expectError(response, 400, 'BAD_REQUEST', 'Unable to access channel (secret).');
    const lenient = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], authorization_errors_fatal: false });
    expectSuccess(lenient, 'POST', '/users/me/subscriptions');
    expect(lenient.body.unauthorized).toEqual(['secret']);
  });

  it('names unknown principals', async () => {
    const response = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [999999] });
    expectError(
      response,
      403,
      'UNAUTHORIZED_PRINCIPAL',
      "User not authorized to execute queries on behalf of '999999'",
      { principal: 999999 },
    );
  });

  it('validates channel names', async () => {
    const response = await world.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: '   ' }] });
    expectError(response, 400, 'BAD_REQUEST', "Channel name can't be empty.");
    const long = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(61) }] });
    expectError(long, 400, 'BAD_REQUEST', 'Channel name too long (limit: 60 characters).');
  });
});

describe("/register's subscriber counts", () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  /** Every channel's subscriber_count in a register without subscriber lists, and the lists of one with them. */
  async function register(includeSubscribers: boolean) {
    const response = await world.as('iago').post('/register', {
      fetch_event_types: JSON.stringify(['subscription', 'stream']),
      include_subscribers: JSON.stringify(includeSubscribers),
    });
    expectSuccess(response, 'POST', '/register');
    const body = response.body as Record<string, Record<string, any>[]>;
    const channels = [...body.subscriptions!, ...body.never_subscribed!, ...body.unsubscribed!];
    return {
      counts: Object.fromEntries(channels.map((c) => [c.name, c.subscriber_count as number])),
      lists: Object.fromEntries(channels.map((c) => [c.name, c.subscribers as number[] | undefined])),
      streams: Object.fromEntries(body.streams!.map((c) => [c.name, c.subscriber_count as number])),
    };
  }

  it('counts the active subscribers the lists name, and a deactivated one no longer', async () => {
    const without = await register(false);
    const withLists = await register(true);
    expect(Object.values(without.lists).every((l) => l === undefined)).toBe(true);
    for (const name of Object.keys(withLists.lists)) {
      const list = withLists.lists[name] ?? [];
      expect([name, without.counts[name]]).toEqual([name, list.length]);
      expect([name, withLists.counts[name]]).toEqual([name, list.length]);
    }
    for (const [name, n] of Object.entries(without.streams)) expect([name, n]).toEqual([name, without.counts[name]]);
    const verona = without.counts.Verona!;
    expect(withLists.lists.Verona).toContain(world.user('othello').id);

    expectSuccess(await world.as('iago').delete(`/users/${world.user('othello').id}`), 'DELETE', '/users/{user_id}');
    const after = await register(false);
    expect(after.counts.Verona).toBe(verona - 1);
    expect(after.streams.Verona).toBe(verona - 1);
    expect((await register(true)).lists.Verona).not.toContain(world.user('othello').id);
  });
});
