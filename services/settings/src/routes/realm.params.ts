import { p, ParamIssue, t, type ParamDefs, type Schema } from '@confab/http';
import { DEFAULT_REALM_PERMISSIONS } from '../domain/realms.js';
import { DEFAULTABLE_SETTINGS } from '../domain/realm-user-defaults.js';
import { SETTINGS_PARAMS } from './settings.params.js';
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH } from '../domain/realm-settings.js';

/** A group-setting value: a group id or {"direct_members": [...], "direct_subgroups": [...]}. */
const groupValue = t.union(t.int(), t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) }));
const groupChange = t.object({ new: groupValue, old: t.optional(groupValue) });

const BOOLS = [
  'allow_edit_history',
  'allow_message_editing',
  'avatar_changes_disabled',
  'digest_emails_enabled',
  'disallow_disposable_email_addresses',
  'email_changes_disabled',
  'emails_restricted_to_domains',
  'enable_guest_user_dm_warning',
  'enable_guest_user_indicator',
  'enable_read_receipts',
  'enable_spectator_access',
  'inline_image_preview',
  'inline_url_embed_preview',
  'invite_required',
  'mandatory_topics',
  'message_content_allowed_in_email_notifications',
  'name_changes_disabled',
  'require_e2ee_push_notifications',
  'require_unique_names',
  'send_welcome_emails',
  'want_advertise_in_communities_directory',
];
const INTS = [
  'digest_weekday',
  'giphy_rating',
  'org_type',
  'video_chat_provider',
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
];
/** A number of seconds (or days), or the text 'unlimited'. */
const LIMITS = [
  'message_content_delete_limit_seconds',
  'message_content_edit_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'message_retention_days',
];
/** Plain (not JSON) strings. */
const STRINGS = [
  'default_language',
  'default_code_block_language',
  'message_edit_history_visibility_policy',
  'topics_policy',
];

export const REALM_GROUP_SETTINGS = Object.keys(DEFAULT_REALM_PERMISSIONS);

/** A JSON object of booleans (`authentication_methods`: method name → enabled). */
const boolDict: Schema<Record<string, boolean>> = {
  parse(value, loc) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParamIssue('dict_type', loc);
    for (const [key, enabled] of Object.entries(value)) {
      if (typeof enabled !== 'boolean') throw new ParamIssue('bool_type', [...loc, key]);
    }
    return value as Record<string, boolean>;
  },
};

/** PATCH /realm's parameters: Zulip's update_realm, scalar settings and group-valued permissions. */
export const REALM_PARAMS: ParamDefs = {
  name: p.string({ maxLength: MAX_REALM_NAME_LENGTH }).optional(),
  description: p.string({ maxLength: MAX_REALM_DESCRIPTION_LENGTH }).optional(),
  waiting_period_threshold: p.json(t.int({ min: 0 })).optional(),
  string_id: p.string({ maxLength: 40 }).optional(),
  jitsi_server_url: p.json(t.nullable(t.string({ maxLength: 200 }))).optional(),
  welcome_message_custom_text: p.string({ maxLength: 8000 }).optional(),
  authentication_methods: p.json(boolDict).optional(),
  ...Object.fromEntries(BOOLS.map((name) => [name, p.bool().optional()])),
  ...Object.fromEntries(INTS.map((name) => [name, p.json(t.int()).optional()])),
  ...Object.fromEntries(LIMITS.map((name) => [name, p.json(t.union(t.int(), t.string())).optional()])),
  ...Object.fromEntries(STRINGS.map((name) => [name, p.string().optional()])),
  ...Object.fromEntries(REALM_GROUP_SETTINGS.map((name) => [name, p.json(groupChange).optional()])),
};

const defaultable = new Set(DEFAULTABLE_SETTINGS.map((spec) => spec.name));

/** PATCH /realm/user_settings_defaults's parameters: the personal settings an organization chooses for new users. */
export const USER_DEFAULTS_PARAMS: ParamDefs = {
  ...Object.fromEntries(Object.entries(SETTINGS_PARAMS).filter(([name]) => defaultable.has(name))),
  email_address_visibility: p.json(t.int()).optional(),
};
