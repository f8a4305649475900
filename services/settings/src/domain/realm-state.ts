import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import { DEFAULT_EXTERNAL_ACCOUNTS } from './data/external-accounts.js';
import { hasRealmPermission, inSystemGroup } from './permissions.js';
import type { GroupDirectory } from './ports.js';
import { REALM_SETTING_DEFAULTS, realmSetting, VIDEO_CHAT_PROVIDERS } from './realm-setting-defaults.js';
import { OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from './presence.js';
import { realmPermissions, realmUrl, renderRealmDescription } from './realms.js';
import { TEXT_LIMITS } from './server-limits.js';
import type { Database } from './store.js';
import type { GroupRef, Realm, User } from './types.js';
import { MAX_AVATAR_FILE_MIB } from './avatars.js';
import { authenticationMethodsState } from './auth-methods.js';
import type { SsoSettings } from './sso/settings.js';
import { ssoMethodEnabled } from './sso/methods.js';
import { SERVER_SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.js';
import { MAX_REALM_IMAGE_FILE_MIB, realmImageState } from './realm-images.js';
import { avatarUrl } from './users.js';

/** Where this server serves its Unicode emoji data (GET, no authentication). */
export const EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

export interface RealmStateConfig {
  externalUrl: string;
  /** The messaging service's upload limit, which clients check before uploading. */
  maxFileUploadMib: number;
  /** The identity methods the server has (their on/off state is the organization's). */
  sso?: SsoSettings;
}

/** Zulip's legacy wildcard_mention_policy values, derived from can_mention_many_users_group for older clients. */
const WILDCARD_POLICY: Record<string, number> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

export { CUSTOM_PROFILE_FIELD_TYPES } from './profile-fields.js';

/**
 * A group-valued setting as clients read it: the system group's id (learned from the groups service's events),
 * or, until that is known, the same people as an anonymous group.
 */
function groupSettingValue(
  ref: GroupRef,
  realm: Realm,
  systemGroups: ReadonlyMap<string, number>,
  users: readonly User[],
): number | { direct_members: number[]; direct_subgroups: number[] } {
  if (typeof ref === 'number') return ref;
  const id = systemGroups.get(ref);
  if (id !== undefined) return id;
  const members = users.filter((u) => u.isActive && inSystemGroup(ref, u, realm)).map((u) => u.id);
  return { direct_members: members, direct_subgroups: [] };
}

/** The organization's settings part of POST /register (Zulip's `realm` section, as far as Confab has them). */
export async function realmSettingsState(
  db: Database,
  config: RealmStateConfig,
  realm: Realm,
  users: readonly User[],
): Promise<Record<string, unknown>> {
  const systemGroups = await db.store.systemGroups.ofRealm(realm.id);
  const permissions = realmPermissions(realm);
  const groupSettings = Object.fromEntries(
    Object.entries(permissions).map(([name, ref]) => [
      `realm_${name}`,
      groupSettingValue(ref, realm, systemGroups, users),
    ]),
  );
  const url = realmUrl(realm, config.externalUrl);
  const mentionRef = permissions.can_mention_many_users_group;
  return {
    ...TEXT_LIMITS,
    realm_name: realm.name,
    realm_description: realm.description,
    // Newer Zulip keeps the rendered form beside the Markdown (its description update_dict event carries both).
    realm_rendered_description: renderRealmDescription(realm.description, url),
    realm_url: url,
    realm_uri: url,
    realm_date_created: Math.floor(realm.dateCreated.getTime() / 1000),
    ...realmImageState(realm, url),
    realm_empty_topic_display_name: realm.emptyTopicDisplayName,
    realm_mandatory_topics: realm.mandatoryTopics,
    realm_topics_policy: realm.mandatoryTopics ? 'disable_empty_topic' : 'allow_empty_topic',
    realm_waiting_period_threshold: realm.waitingPeriodThreshold,
    realm_allow_message_editing: realm.allowMessageEditing,
    realm_message_content_edit_limit_seconds: realm.messageContentEditLimitSeconds,
    realm_message_content_delete_limit_seconds: realm.messageContentDeleteLimitSeconds,
    realm_move_messages_within_stream_limit_seconds: realm.moveMessagesWithinStreamLimitSeconds,
    realm_move_messages_between_streams_limit_seconds: realm.moveMessagesBetweenStreamsLimitSeconds,
    realm_allow_edit_history: true,
    realm_enable_read_receipts: realm.enableReadReceipts,
    realm_presence_disabled: realm.presenceDisabled,
    realm_message_retention_days: realm.messageRetentionDays ?? -1,
    realm_name_changes_disabled: realm.nameChangesDisabled,
    realm_email_changes_disabled: realm.emailChangesDisabled,
    realm_wildcard_mention_policy: typeof mentionRef === 'string' ? (WILDCARD_POLICY[mentionRef] ?? 5) : 5,
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
    ...otherRealmSettings(realm, url, config.sso),
    ...groupSettings,
    max_file_upload_size_mib: config.maxFileUploadMib,
    server_emoji_data_url: `${url}${EMOJI_DATA_PATH}`,
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
  };
}

/** Zulip's legacy CommonPolicyEnum for the channel creation settings, derived from their groups for older clients. */
const COMMON_POLICY: Record<string, number> = {
  'role:members': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};

/** When this server started (Zulip's server_generation: clients reload when it changes). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** The settings PATCH /realm changes beyond the columns, and the fixed facts of this server clients read with them. */
function otherRealmSettings(realm: Realm, url: string, sso: SsoSettings | undefined): Record<string, unknown> {
  const stored = Object.fromEntries(
    Object.keys(REALM_SETTING_DEFAULTS).map((name) => [`realm_${name}`, realmSetting(realm, name)]),
  );
  const permissions = realmPermissions(realm);
  const policy = (name: string) => {
    const ref = permissions[name];
    return typeof ref === 'string' ? (COMMON_POLICY[ref] ?? 2) : 2;
  };
  const editHistory = realmSetting<string>(realm, 'message_edit_history_visibility_policy');
  return {
    ...stored,
    realm_allow_edit_history: editHistory !== 'none',
    realm_create_public_stream_policy: policy('can_create_public_channel_group'),
    realm_create_private_stream_policy: policy('can_create_private_channel_group'),
    realm_create_web_public_stream_policy: policy('can_create_web_public_channel_group'),
    realm_authentication_methods: authenticationMethodsState(realm, sso),
    realm_email_auth_enabled: realm.emailAuthEnabled,
    realm_password_auth_enabled: realm.emailAuthEnabled || (sso !== undefined && ssoMethodEnabled(sso, realm, 'LDAP')),
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    max_icon_file_size_mib: MAX_REALM_IMAGE_FILE_MIB,
    server_supported_permission_settings: SERVER_SUPPORTED_PERMISSION_SETTINGS,
    max_logo_file_size_mib: MAX_REALM_IMAGE_FILE_MIB,
    max_avatar_file_size_mib: MAX_AVATAR_FILE_MIB,
    realm_bot_domain: new URL(url).hostname,
    realm_is_zephyr_mirror_realm: false,
    realm_push_notifications_enabled: true,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_upload_quota_mib: null,
    realm_plan_type: 1,
    realm_name_in_email_notifications_policy: 1,
    server_generation: SERVER_GENERATION,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: false,
    server_jitsi_server_url: 'https://meet.jit.si',
    server_can_summarize_topics: false,
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
    max_bulk_new_subscription_messages: 100,
  };
}

/**
 * Zulip's user-specific capabilities of the `realm` section (deprecated, still sent): whether this user may create
 * channels, subscribe others and invite people, from the organization's group settings.
 */
export async function userCapabilitiesState(
  groups: GroupDirectory,
  realm: Realm,
  user: User,
): Promise<Record<string, unknown>> {
  const may = (setting: string) => hasRealmPermission(groups, realm, user, setting);
  const [isPublic, isPrivate, isWebPublic, subscribe, invite] = await Promise.all([
    may('can_create_public_channel_group'),
    may('can_create_private_channel_group'),
    may('can_create_web_public_channel_group'),
    may('can_add_subscribers_group'),
    may('can_invite_users_group'),
  ]);
  return {
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_subscribe_other_users: subscribe,
    can_invite_others_to_realm: invite,
  };
}

/** The current user's own part of Zulip's `realm_user` section. */
export function ownUserState(user: User): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.email,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
    avatar_source: user.avatarFile ? 'U' : 'G',
    avatar_url: avatarUrl(user),
    avatar_url_medium: avatarUrl(user, true),
    is_admin: user.role <= ROLE_ADMINISTRATOR,
    is_owner: user.role === ROLE_OWNER,
    is_moderator: user.role === ROLE_MODERATOR,
    is_guest: user.role === ROLE_GUEST,
  };
}
