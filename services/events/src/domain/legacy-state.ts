import type { Capabilities } from './descriptor.js';

/**
 * The deprecated forms of /register's answer that Zulip 11 still writes for clients without a capability (its
 * fetch_initial_state_data and post_process_state): the owning services answer in the modern form, and this file
 * rewrites their merged answer for the client that asked. docs/clients.md lists every rule.
 */

/** Zulip's UserProfile.display_settings_legacy: top-level keys for `update_display_settings`. */
export const DISPLAY_SETTINGS_LEGACY: readonly string[] = [
  'color_scheme',
  'default_language',
  'web_home_view',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'enter_sends',
  'fluid_layout_width',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
];

/** Zulip's UserProfile.notification_settings_legacy: top-level keys for `update_global_notifications`. */
export const NOTIFICATION_SETTINGS_LEGACY: readonly string[] = [
  'desktop_icon_count_display',
  'email_notifications_batching_period_seconds',
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'realm_name_in_email_notifications_policy',
  'wildcard_mentions_notify',
];

/** A channel's notification settings that clients without notification_settings_null read as booleans. */
const CHANNEL_NOTIFICATIONS = ['desktop', 'audible', 'push', 'email'] as const;

export interface LegacyOptions {
  /** The client's fetch_event_types (or event_types); null: everything. */
  wanted: readonly string[] | null;
  capabilities: Capabilities;
  /** The organization's name for the empty topic, for clients without `empty_topic_name`. */
  emptyTopicDisplayName: string;
}

const wants = (wanted: readonly string[] | null, type: string) => wanted === null || wanted.includes(type);

/** Whether writing the legacy forms needs the user's settings although the client did not ask for them. */
function needsUserSettings(wanted: readonly string[] | null, capabilities: Capabilities): boolean {
  if (wanted === null || wanted.includes('user_settings')) return false;
  const legacyKeys =
    !capabilities.userSettingsObject &&
    (wanted.includes('update_display_settings') || wanted.includes('update_global_notifications'));
  const channelDefaults = !capabilities.notificationSettingsNull && wanted.includes('subscription');
  return legacyKeys || channelDefaults;
}

/**
 * What to ask the owning services for: the client's types, plus `user_settings` when the legacy forms are built
 * from them (the legacy settings keys, a channel's inherited notification settings).
 */
export function typesToFetch(wanted: readonly string[] | null, capabilities: Capabilities): string[] | null {
  if (wanted === null) return null;
  return needsUserSettings(wanted, capabilities) ? [...wanted, 'user_settings'] : [...wanted];
}

type Dict = Record<string, unknown>;
const isDict = (value: unknown): value is Dict => typeof value === 'object' && value !== null && !Array.isArray(value);
const dicts = (value: unknown): Dict[] => (Array.isArray(value) ? value.filter(isDict) : []);

function copyLegacySettings(state: Dict, settings: Dict, wanted: readonly string[] | null): void {
  if (wants(wanted, 'update_display_settings')) {
    for (const name of DISPLAY_SETTINGS_LEGACY) if (name in settings) state[name] = settings[name];
    state.emojiset_choices = settings.emojiset_choices;
    state.timezone = settings.timezone;
  }
  if (wants(wanted, 'update_global_notifications')) {
    for (const name of NOTIFICATION_SETTINGS_LEGACY) if (name in settings) state[name] = settings[name];
    state.available_notification_sounds = settings.available_notification_sounds;
  }
}

/** Zulip's handle_stream_notifications_compatibility: an inherited (null) setting becomes the user's default. */
function channelNotificationDefaults(state: Dict, settings: Dict | undefined): void {
  for (const sub of [...dicts(state.subscriptions), ...dicts(state.unsubscribed)]) {
    for (const kind of CHANNEL_NOTIFICATIONS) {
      const key = `${kind}_notifications`;
      if (sub[key] === null) sub[key] = settings?.[`enable_stream_${key}`] ?? false;
    }
  }
}

/** The empty topic by the organization's name for it, wherever a topic name appears in the answer. */
function emptyTopicByName(state: Dict, name: string): void {
  const unread = state.unread_msgs;
  if (isDict(unread)) for (const entry of dicts(unread.streams)) if (entry.topic === '') entry.topic = name;
  for (const entry of dicts(state.user_topics)) if (entry.topic_name === '') entry.topic_name = name;
  if (Array.isArray(state.muted_topics)) {
    for (const entry of state.muted_topics as unknown[]) if (Array.isArray(entry) && entry[1] === '') entry[1] = name;
  }
}

/** Rewrites the merged initial state in place for a client with these capabilities. */
export function applyLegacyForms(state: Dict, options: LegacyOptions): void {
  const { wanted, capabilities } = options;
  const settings = isDict(state.user_settings) ? state.user_settings : undefined;
  if (settings && !capabilities.userSettingsObject) copyLegacySettings(state, settings, wanted);
  if (!capabilities.notificationSettingsNull && 'subscriptions' in state) channelNotificationDefaults(state, settings);
  if (!wants(wanted, 'user_settings')) delete state.user_settings;
  // A client asking for both reads user_topics: muted_topics is only for servers that lack it.
  if (wanted !== null && wanted.includes('user_topic')) delete state.muted_topics;
  // Zulip's linkifiers are URL templates; a client that cannot expand them gets none rather than wrong links.
  if (!capabilities.linkifierUrlTemplate && 'realm_linkifiers' in state) state.realm_linkifiers = [];
  if ('realm_filters' in state) state.realm_filters = [];
  if (!capabilities.emptyTopicName) emptyTopicByName(state, options.emptyTopicDisplayName);
}
