import type { World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { initialState } from './support/internal';
import { newWorld } from './support/system';

// The first request to a freshly started settings process warms its database client up (about 2 s).
jest.setTimeout(30_000);

const settingsOf = async (world: World, name: Parameters<World['user']>[0]) =>
  (await initialState(world.user(name).id)).user_settings;

describe('PATCH /settings with target_users', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['user_settings.changed']);
  });
  afterAll(() => tap.close());

  it('is for organization administrators only', async () => {
    const response = await world.as('hamlet').patch('/settings', {
      target_users: { user_ids: [world.user('cordelia').id], skip_if_already_edited: false },
      color_scheme: 2,
    });
    expectError(response, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(
      await world.as('shiva').patch('/settings', {
        target_users: { user_ids: [world.user('cordelia').id], skip_if_already_edited: false },
        color_scheme: 2,
      }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect((await settingsOf(world, 'cordelia')).color_scheme).toBe(1);
  });

  it('needs user_ids or group_ids', async () => {
    for (const target_users of [
      { skip_if_already_edited: true },
      { user_ids: [], group_ids: [], skip_if_already_edited: true },
    ]) {
      expectError(
        await world.as('iago').patch('/settings', { target_users, color_scheme: 2 }),
        400,
        'BAD_REQUEST',
        'Either user_ids or group_ids must be provided.',
      );
    }
  });

  it('refuses personal-only settings', async () => {
    const target_users = { user_ids: [world.user('cordelia').id], skip_if_already_edited: false };
    for (const extra of [
      { email: 'new@example.com' },
      { new_password: 'a perfectly good passphrase', old_password: 'x' },
      { timezone: 'Asia/Tokyo' },
      { send_read_receipts: false },
      { presence_enabled: false },
      { enable_marketing_emails: false },
      { allow_private_data_export: true },
    ]) {
      expectError(
        await world.as('iago').patch('/settings', { target_users, ...extra }),
        400,
        'BAD_REQUEST',
        'Cannot change this setting for other users.',
      );
    }
  });

  it('refuses unknown users, and users of other organizations', async () => {
    const other = await newWorld();
    for (const id of [999999, 3000000000, other.user('hamlet').id]) {
      expectError(
        await world.as('iago').patch('/settings', {
          target_users: { user_ids: [world.user('hamlet').id, id], skip_if_already_edited: false },
          color_scheme: 2,
        }),
        400,
        'BAD_REQUEST',
        `Invalid user ID: ${id}`,
      );
    }
    expect((await settingsOf(world, 'hamlet')).color_scheme).toBe(1);
  });

  it('changes the listed users, skips bots, includes deactivated users, and announces each change', async () => {
    const aaron = world.user('aaron');
    expectSuccess(await world.as('iago').delete(`/users/${aaron.id}`), 'DELETE', `/users/${aaron.id}`);
    const ids = ['cordelia', 'prospero', 'aaron', 'default-bot'].map((n) => world.user(n as 'aaron').id);
    const response = await world.as('iago').patch('/settings', {
      target_users: { user_ids: ids, skip_if_already_edited: false },
      color_scheme: 2,
      web_home_view: 'all_messages',
    });
    expectSuccess(response, 'PATCH', '/settings');
    for (const name of ['cordelia', 'prospero', 'aaron'] as const) {
      expect(await settingsOf(world, name)).toMatchObject({ color_scheme: 2, web_home_view: 'all_messages' });
      const event = await tap.next((e) => e.payload.user_id === world.user(name).id);
      expect([...event.payload.changed].sort()).toEqual(['color_scheme', 'web_home_view']);
    }
    expect(await settingsOf(world, 'default-bot')).toMatchObject({ color_scheme: 1, web_home_view: 'inbox' });
    expect(tap.events.filter((e) => e.payload.user_id === world.user('default-bot').id)).toEqual([]);
  });

  it('with skip_if_already_edited, leaves alone users who chose the value themselves', async () => {
    expectSuccess(await world.as('othello').patch('/settings', { user_list_style: 2 }), 'PATCH', '/settings');
    const target = (skip: boolean) => ({
      user_ids: [world.user('othello').id, world.user('shiva').id],
      skip_if_already_edited: skip,
    });
    expectSuccess(
      await world
        .as('desdemona')
        .patch('/settings', { target_users: target(true), user_list_style: 1, emojiset: 'text' }),
      'PATCH',
      '/settings',
    );
    expect(await settingsOf(world, 'othello')).toMatchObject({ user_list_style: 2, emojiset: 'text' });
    expect(await settingsOf(world, 'shiva')).toMatchObject({ user_list_style: 1, emojiset: 'text' });
    // An administrator's earlier bulk change does not count as the user's own choice.
    expectSuccess(
      await world.as('iago').patch('/settings', { target_users: target(true), user_list_style: 3 }),
      'PATCH',
      '/settings',
    );
    expect((await settingsOf(world, 'shiva')).user_list_style).toBe(3);
    expectSuccess(
      await world.as('desdemona').patch('/settings', { target_users: target(false), user_list_style: 1 }),
      'PATCH',
      '/settings',
    );
    expect((await settingsOf(world, 'othello')).user_list_style).toBe(1);
  });

  it('publishes nothing for users whose value is already the requested one', async () => {
    const polonius = world.user('polonius');
    const target_users = { user_ids: [polonius.id], skip_if_already_edited: false };
    expectSuccess(
      await world.as('iago').patch('/settings', { target_users, demote_inactive_streams: 2 }),
      'PATCH',
      '/settings',
    );
    await tap.next((e) => e.payload.user_id === polonius.id);
    expectSuccess(
      await world.as('iago').patch('/settings', { target_users, demote_inactive_streams: 2 }),
      'PATCH',
      '/settings',
    );
    expect(await tap.collect((e) => e.payload.user_id === polonius.id, 600)).toHaveLength(1);
  });
});

/** `group_ids` are resolved to active members (through subgroups) by the groups service. */
describe('PATCH /settings with target_users.group_ids', () => {
  let world: World;
  let outer: number;
  let inner: number;

  beforeAll(async () => {
    world = await newWorld();
    const create = async (name: string, members: number[], subgroups: number[] = []) => {
      const response = await world
        .as('iago')
        .post('/user_groups/create', { name, description: name, members, subgroups });
      expect(response.status).toBe(200);
      return response.body.group_id as number;
    };
    inner = await create('inner circle', [world.user('cordelia').id, world.user('default-bot').id]);
    outer = await create('outer circle', [world.user('hamlet').id], [inner]);
  });

  it("applies to the groups' members through subgroups (with the listed users), never to bots", async () => {
    const response = await world.as('iago').patch('/settings', {
      target_users: { user_ids: [world.user('othello').id], group_ids: [outer], skip_if_already_edited: false },
      translate_emoticons: true,
    });
    expectSuccess(response, 'PATCH', '/settings');
    for (const name of ['hamlet', 'cordelia', 'othello'] as const)
      expect((await settingsOf(world, name)).translate_emoticons).toBe(true);
    for (const name of ['default-bot', 'prospero'] as const)
      expect((await settingsOf(world, name)).translate_emoticons).toBe(false);
  });

  it("passes the groups service's refusal of an unknown group on, and changes nothing", async () => {
    const response = await world.as('iago').patch('/settings', {
      target_users: { group_ids: [inner, 999999], skip_if_already_edited: false },
      translate_emoticons: false,
    });
    expectError(response, 400, 'BAD_REQUEST', 'Invalid user group ID: 999999');
    expect((await settingsOf(world, 'cordelia')).translate_emoticons).toBe(true);
  });

  it("refuses another organization's group", async () => {
    const other = await newWorld();
    const foreign = await other
      .as('iago')
      .post('/user_groups/create', { name: 'theirs', description: 'x', members: [] });
    const response = await world.as('iago').patch('/settings', {
      target_users: { group_ids: [foreign.body.group_id], skip_if_already_edited: false },
      translate_emoticons: false,
    });
    expectError(response, 400, 'BAD_REQUEST', `Invalid user group ID: ${foreign.body.group_id}`);
  });
});
