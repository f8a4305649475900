import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { eventually } from './support/groups';
import { newWorld, system } from './support/system';

/** The Flutter app's /register parameters (lib/api/route/events.dart, lib/model/store.dart). */
const FLUTTER_REGISTER = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  idle_queue_timeout: 'mobile',
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

describe('POST /register: the organization, its users and personal state from the settings service', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("has every key of the Flutter app's snapshot that settings owns, with the types its parser requires", async () => {
    const hamlet = world.user('hamlet');
    const queue = await EventQueue.register(world.as('hamlet'), FLUTTER_REGISTER);
    const s = queue.registration;
    const types: Record<string, string> = {
      alert_words: 'array',
      custom_profile_fields: 'array',
      muted_users: 'array',
      presences: 'object',
      realm_emoji: 'object',
      user_status: 'object',
      realm_users: 'array',
      realm_non_active_users: 'array',
      cross_realm_bots: 'array',
      realm_name: 'string',
      realm_icon_url: 'string',
      realm_wildcard_mention_policy: 'number',
      realm_waiting_period_threshold: 'number',
      realm_allow_message_editing: 'boolean',
      realm_enable_read_receipts: 'boolean',
      realm_presence_disabled: 'boolean',
      realm_default_external_accounts: 'object',
      server_presence_ping_interval_seconds: 'number',
      server_presence_offline_threshold_seconds: 'number',
      max_file_upload_size_mib: 'number',
      server_emoji_data_url: 'string',
      realm_mandatory_topics: 'boolean',
      realm_topics_policy: 'string',
      realm_message_retention_days: 'number',
      email: 'string',
      full_name: 'string',
      realm_bots: 'array',
      custom_profile_field_types: 'object',
    };
    for (const [key, type] of Object.entries(types)) {
      expect([key, Array.isArray(s[key]) ? 'array' : typeof s[key]]).toEqual([key, type]);
    }
    expect(s).toMatchObject({
      email: hamlet.email,
      full_name: hamlet.fullName,
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_move_messages_within_stream_limit_seconds: 604800,
      realm_move_messages_between_streams_limit_seconds: 604800,
      realm_enable_read_receipts: false,
      realm_message_retention_days: -1,
      realm_topics_policy: 'allow_empty_topic',
      realm_wildcard_mention_policy: 5,
      max_file_upload_size_mib: 25,
    });
    expect(s.realm_default_external_accounts.github).toEqual({
      text: 'GitHub',
      url_pattern: 'https://github.com/%(username)s',
      name: 'GitHub username',
      hint: '',
    });
    // Every active account, bots too; the Flutter app needs avatar_url absent or a URL since it asks for it.
    const ids = (s.realm_users as { user_id: number }[]).map((u) => u.user_id).sort((a, b) => a - b);
    expect(ids).toEqual(
      Object.values(world.users)
        .map((u) => u.id)
        .sort((a, b) => a - b),
    );
    const hamletUser = (s.realm_users as Record<string, unknown>[]).find((u) => u.user_id === hamlet.id)!;
    expect(hamletUser).toMatchObject({ email: hamlet.email, full_name: hamlet.fullName, role: 400, is_active: true });
    expect(typeof hamletUser.avatar_url).toBe('string');
    // Hamlet owns no bot; Iago owns the development bot and, as an administrator, administers all bots.
    expect(s.realm_bots).toEqual([]);
    await queue.delete();
    const iago = await EventQueue.register(world.as('iago'), { fetch_event_types: ['realm_bot'] });
    expect(iago.registration.realm_bots).toEqual([
      expect.objectContaining({ user_id: world.user('default-bot').id, owner_id: world.user('iago').id, bot_type: 1 }),
    ]);
    await iago.delete();
  });

  it("gives the organization's group-valued settings as the system groups' ids", async () => {
    const groups = await world.as('iago').get('/user_groups');
    const members = (groups.body.user_groups as { id: number; name: string }[]).find((g) => g.name === 'role:members')!;
    await eventually(async () => {
      const queue = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['realm'] });
      expect(queue.registration.realm_can_move_messages_between_channels_group).toBe(members.id);
      expect(queue.registration.realm_can_add_custom_emoji_group).toBe(members.id);
      expect(typeof queue.registration.realm_can_move_messages_between_topics_group).toBe('number');
      await queue.delete();
    });
  });

  it('serves the Unicode emoji data at server_emoji_data_url without credentials', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['realm'] });
    const url = new URL(queue.registration.server_emoji_data_url as string);
    await queue.delete();
    const response = await fetch(new URL(url.pathname, system().gatewayUrl));
    expect(response.status).toBe(200);
    const data = (await response.json()) as { code_to_names: Record<string, string[]> };
    expect(data.code_to_names['1f697']).toEqual(expect.arrayContaining(['car']));
    expect(data.code_to_names['1f697']![0]).toBe('car');
  });

  it('lists no custom profile fields and no linkifiers yet', async () => {
    const fields = await world.as('hamlet').get('/realm/profile_fields');
    expectSuccess(fields, 'GET', '/realm/profile_fields');
    expect(fields.body.custom_fields).toEqual([]);
    const linkifiers = await world.as('hamlet').get('/realm/linkifiers');
    expectSuccess(linkifiers, 'GET', '/realm/linkifiers');
    expect(linkifiers.body.linkifiers).toEqual([]);
  });

  it('tells other users about profile, role and activation changes as realm_user events', async () => {
    const aaron = world.user('aaron');
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_user'] });
    expectSuccess(await world.as('aaron').patch('/settings', { full_name: 'Aaron the Moor' }), 'PATCH', '/settings');
    await watcher.next(
      (e) =>
        e.type === 'realm_user' &&
        e.op === 'update' &&
        e.person.user_id === aaron.id &&
        e.person.full_name === 'Aaron the Moor',
    );
    expectSuccess(await world.as('iago').delete(`/users/${aaron.id}`), 'DELETE', '/users/{user_id}');
    await watcher.next((e) => e.type === 'realm_user' && e.person.user_id === aaron.id && e.person.is_active === false);
    const state = await EventQueue.register(world.as('cordelia'), { fetch_event_types: ['realm_user'] });
    expect((state.registration.realm_non_active_users as { user_id: number }[]).map((u) => u.user_id)).toEqual([
      aaron.id,
    ]);
    await state.delete();
    await watcher.delete();
  });
});
