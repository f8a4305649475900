/**
 * Zulip's `server_supported_permission_settings` of /register (Realm.REALM_PERMISSION_GROUP_SETTINGS,
 * Stream.stream_permission_group_settings and NamedUserGroup.GROUP_PERMISSION_SETTINGS in zerver/models): for each
 * group-valued setting Confab serves, which groups it may name and its default. Channel settings Confab does not
 * have (`can_create_topic_group`) are left out, so that clients do not offer them.
 */
interface GroupPermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

const setting = (
  allowEveryone: boolean,
  defaultGroupName: string,
  extra: Partial<GroupPermissionSetting> = {},
): GroupPermissionSetting => ({
  require_system_group: false,
  allow_internet_group: false,
  allow_nobody_group: true,
  allow_everyone_group: allowEveryone,
  default_group_name: defaultGroupName,
  default_for_system_groups: null,
  allowed_system_groups: [],
  ...extra,
});

const [EVERYONE, MEMBERS, MODERATORS, ADMINS, OWNERS, NOBODY] = [
  'role:everyone',
  'role:members',
  'role:moderators',
  'role:administrators',
  'role:owners',
  'role:nobody',
];

const REALM: Record<string, GroupPermissionSetting> = {
  create_multiuse_invite_group: setting(false, ADMINS),
  can_access_all_users_group: setting(true, EVERYONE, {
    require_system_group: true,
    allow_nobody_group: false,
    allowed_system_groups: [EVERYONE, MEMBERS],
  }),
  can_add_subscribers_group: setting(false, MEMBERS),
  can_add_custom_emoji_group: setting(false, MEMBERS),
  can_create_bots_group: setting(false, MEMBERS),
  can_create_groups: setting(false, MEMBERS),
  can_create_public_channel_group: setting(false, MEMBERS),
  can_create_private_channel_group: setting(false, MEMBERS),
  can_create_web_public_channel_group: setting(false, OWNERS, {
    require_system_group: true,
    allowed_system_groups: [MODERATORS, ADMINS, OWNERS, NOBODY],
  }),
  can_create_write_only_bots_group: setting(false, MEMBERS),
  can_delete_any_message_group: setting(false, ADMINS),
  can_delete_own_message_group: setting(true, EVERYONE),
  can_invite_users_group: setting(false, MEMBERS),
  can_manage_all_groups: setting(false, OWNERS, { allow_nobody_group: false }),
  can_manage_billing_group: setting(false, ADMINS, { allow_nobody_group: false }),
  can_mention_many_users_group: setting(true, ADMINS),
  can_move_messages_between_channels_group: setting(false, MEMBERS),
  can_move_messages_between_topics_group: setting(true, EVERYONE),
  can_resolve_topics_group: setting(true, EVERYONE),
  can_set_delete_message_policy_group: setting(false, MODERATORS),
  can_set_topics_policy_group: setting(true, MEMBERS),
  can_summarize_topics_group: setting(true, EVERYONE),
  direct_message_initiator_group: setting(true, EVERYONE),
  direct_message_permission_group: setting(true, EVERYONE),
};

const STREAM: Record<string, GroupPermissionSetting> = {
  can_add_subscribers_group: setting(false, NOBODY),
  can_administer_channel_group: setting(false, 'channel_creator'),
  can_delete_any_message_group: setting(true, NOBODY),
  can_delete_own_message_group: setting(true, NOBODY),
  can_move_messages_out_of_channel_group: setting(true, NOBODY),
  can_move_messages_within_channel_group: setting(true, NOBODY),
  can_remove_subscribers_group: setting(true, ADMINS),
  can_send_message_group: setting(true, EVERYONE),
  can_subscribe_group: setting(false, NOBODY),
  can_resolve_topics_group: setting(true, NOBODY),
};

const forGroups = (allowEveryone: boolean, defaultGroupName: string) =>
  setting(allowEveryone, defaultGroupName, { default_for_system_groups: NOBODY });

const GROUP: Record<string, GroupPermissionSetting> = {
  can_add_members_group: forGroups(false, 'group_creator'),
  can_join_group: forGroups(false, NOBODY),
  can_leave_group: forGroups(true, EVERYONE),
  can_manage_group: forGroups(false, 'group_creator'),
  can_mention_group: forGroups(true, EVERYONE),
  can_remove_members_group: forGroups(false, NOBODY),
};

export const SERVER_SUPPORTED_PERMISSION_SETTINGS = { realm: REALM, stream: STREAM, group: GROUP };
