import type { World } from '@confab/devkit';
import { expectRegistration } from './support/event-queues';
import { newWorld } from './support/system';

/** `server_supported_permission_settings` in /register: which groups each group-valued setting may name. */
describe('server_supported_permission_settings', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("describes every group-valued organization setting the client receives, with Zulip's metadata", async () => {
    const response = await world.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
    expectRegistration(response);
    const supported = response.body.server_supported_permission_settings as Record<
      'realm' | 'stream' | 'group',
      Record<string, Record<string, unknown>>
    >;
    const groupSettings = Object.keys(response.body)
      .filter((key) =>
        /^realm_(can_.*_group|can_create_groups|can_manage_all_groups|create_multiuse_invite_group|direct_message_.*_group)$/.test(
          key,
        ),
      )
      .map((key) => key.slice('realm_'.length))
      .sort();
    expect(groupSettings.length).toBeGreaterThan(20);
    expect(Object.keys(supported.realm).sort()).toEqual(groupSettings);
    expect(supported.realm.can_access_all_users_group).toEqual({
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: null,
      allowed_system_groups: ['role:everyone', 'role:members'],
    });
    expect(supported.realm.create_multiuse_invite_group).toMatchObject({
      allow_everyone_group: false,
      default_group_name: 'role:administrators',
    });
    expect(supported.stream.can_remove_subscribers_group).toMatchObject({ default_group_name: 'role:administrators' });
    expect(supported.group.can_mention_group).toMatchObject({
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: 'role:nobody',
    });

    const without = await world.as('hamlet').post('/register', { fetch_event_types: ['message'] });
    expect(without.body.server_supported_permission_settings).toBeUndefined();
  });
});
