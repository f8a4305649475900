/**
 * The personal settings PATCH /settings edits, with Zulip's defaults and value sets (zerver/models/users.py
 * UserBaseSettings; docs/api.md narrows web_channel_default_view to 1, 2, 4, web_home_view to recent/inbox/all_messages
 * and emojiset to three values). `timezone` is a setting too but lives on the user (see user-settings.ts).
 */
export type SettingValue = boolean | number | string;

export type SettingKind =
  | { type: 'bool' }
  | { type: 'int'; choices?: readonly number[]; min?: number; max?: number }
  /** A string from a fixed set; `enumMessage` replaces the generic "not in the list" complaint. */
  | { type: 'str'; choices?: readonly string[]; enumMessage?: string };

export interface SettingSpec {
  name: string;
  default: SettingValue;
  kind: SettingKind;
  /** Administrators may not change it for others (Zulip's SECURITY_SENSITIVE_USER_SETTINGS). */
  sensitive?: boolean;
}

const bool = (name: string, value: boolean, sensitive = false): SettingSpec => ({
  name,
  default: value,
  kind: { type: 'bool' },
  sensitive,
});
const oneOf = (name: string, value: number, choices: readonly number[]): SettingSpec => ({
  name,
  default: value,
  kind: { type: 'int', choices },
});
// PositiveSmallIntegerField in Zulip: anything outside would be a database error there.
const smallInt = (name: string, value: number): SettingSpec => ({
  name,
  default: value,
  kind: { type: 'int', min: 0, max: 32767 },
});

export const EMOJISETS = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
] as const;

/** Follow or unmute automatically on: 1 participation, 2 sending, 3 starting the topic, 4 never. */
const VISIBILITY_POLICY_CHOICES = [1, 2, 3, 4];

export const SETTINGS: readonly SettingSpec[] = [
  // Display
  bool('twenty_four_hour_time', false),
  oneOf('web_mark_read_on_scroll_policy', 1, [1, 2, 3]),
  oneOf('web_channel_default_view', 1, [1, 2, 4]),
  bool('starred_message_counts', true),
  bool('receives_typing_notifications', true),
  bool('web_suggest_update_timezone', true),
  bool('fluid_layout_width', false),
  bool('high_contrast_mode', false),
  smallInt('web_font_size_px', 16),
  smallInt('web_line_height_percent', 140),
  oneOf('color_scheme', 1, [1, 2, 3]),
  bool('enable_drafts_synchronization', true),
  bool('translate_emoticons', false),
  bool('display_emoji_reaction_users', true),
  { name: 'default_language', default: 'en', kind: { type: 'str' } },
  { name: 'web_home_view', default: 'inbox', kind: { type: 'str', choices: ['recent', 'inbox', 'all_messages'] } },
  bool('web_escape_navigates_to_home_view', true),
  bool('left_side_userlist', false),
  { name: 'emojiset', default: 'google', kind: { type: 'str', choices: EMOJISETS.map((e) => e.key) } },
  oneOf('demote_inactive_streams', 1, [1, 2, 3]),
  oneOf('user_list_style', 3, [1, 2, 3]),
  {
    name: 'web_animate_image_previews',
    default: 'on_hover',
    kind: { type: 'str', choices: ['always', 'on_hover', 'never'] },
  },
  oneOf('web_stream_unreads_count_display_policy', 2, [1, 2, 3]),
  bool('hide_ai_features', false),
  bool('web_inbox_show_channel_folders', true),
  bool('web_left_sidebar_show_channel_folders', true),
  bool('web_left_sidebar_unreads_count_summary', true),
  bool('web_navigate_to_sent_message', true),
  bool('enter_sends', false),
  // Notifications
  bool('enable_stream_desktop_notifications', false),
  bool('enable_stream_email_notifications', false),
  bool('enable_stream_push_notifications', false),
  bool('enable_stream_audible_notifications', false),
  { name: 'notification_sound', default: 'zulip', kind: { type: 'str' } },
  bool('wildcard_mentions_notify', true),
  bool('enable_followed_topic_desktop_notifications', true),
  bool('enable_followed_topic_email_notifications', true),
  bool('enable_followed_topic_push_notifications', true),
  bool('enable_followed_topic_audible_notifications', true),
  bool('enable_followed_topic_wildcard_mentions_notify', true),
  bool('enable_desktop_notifications', true),
  bool('pm_content_in_desktop_notifications', true),
  bool('enable_sounds', true),
  { name: 'email_notifications_batching_period_seconds', default: 120, kind: { type: 'int' } },
  bool('enable_offline_email_notifications', true),
  bool('message_content_in_email_notifications', true),
  bool('enable_offline_push_notifications', true),
  bool('enable_online_push_notifications', true),
  oneOf('desktop_icon_count_display', 1, [1, 2, 3, 4]),
  oneOf('realm_name_in_email_notifications_policy', 1, [1, 2, 3]),
  oneOf('automatically_follow_topics_policy', 3, VISIBILITY_POLICY_CHOICES),
  oneOf('automatically_unmute_topics_in_muted_streams_policy', 2, VISIBILITY_POLICY_CHOICES),
  bool('automatically_follow_topics_where_mentioned', true),
  {
    name: 'resolved_topic_notice_auto_read_policy',
    default: 'except_followed',
    kind: {
      type: 'str',
      choices: ['always', 'except_followed', 'never'],
      enumMessage: 'Invalid resolved_topic_notice_auto_read_policy',
    },
  },
  // Privacy and email
  bool('enable_digest_emails', true, true),
  bool('enable_login_emails', true, true),
  bool('enable_marketing_emails', true, true),
  bool('presence_enabled', true, true),
  bool('send_stream_typing_notifications', true, true),
  bool('send_private_typing_notifications', true, true),
  bool('send_read_receipts', true, true),
  bool('allow_private_data_export', false, true),
];

export const SETTINGS_BY_NAME: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.name, s]));

/** The full set of values for a user: the stored ones over the defaults; stored values of unknown names are dropped. */
export function resolveSettings(stored: Readonly<Record<string, unknown>>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const spec of SETTINGS) {
    const value = stored[spec.name];
    out[spec.name] = typeof value === typeof spec.default ? (value as SettingValue) : spec.default;
  }
  return out;
}
