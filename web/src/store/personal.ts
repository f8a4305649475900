/**
 * The user's own state beside the conversations: personal settings, topics muted or followed, muted people, alert
 * words, and everyone's status. Filled by /register (user_settings, user_topics, muted_users, alert_words,
 * user_status) and kept current by the events of the same names, so a change made in another browser shows here.
 */
import type {
  AlertWordsEvent,
  MutedUsersEvent,
  UpdateDisplaySettingsEvent,
  UpdateGlobalNotificationsEvent,
  UserSettingsEvent,
  UserStatusEvent,
  UserTopicEvent,
} from '@confab/zulip';
import { signal } from '@preact/signals';
import type { RegisterState } from './register-state';

/** Zulip's visibility policies of a topic (POST /user_topics). */
export const Policy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** The personal settings the client acts on (Zulip's user_settings; the server's defaults until /register). */
export interface UserSettings {
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
  enable_stream_desktop_notifications: boolean;
  enable_stream_audible_notifications: boolean;
  enable_followed_topic_desktop_notifications: boolean;
  enable_followed_topic_audible_notifications: boolean;
  wildcard_mentions_notify: boolean;
  /** 1 all unread, 2 DMs, mentions and followed topics, 3 DMs and mentions, 4 none. */
  desktop_icon_count_display: number;
  notification_sound: string;
  /** 1 automatic (the system's), 2 dark, 3 light. */
  color_scheme: number;
  twenty_four_hour_time: boolean;
  /** An IANA zone; '' for none chosen (times then show in the browser's). */
  timezone: string;
  /** Zulip's language code ("en", "de", "zh-hans"). */
  default_language: string;
  /** true: Enter sends, Shift+Enter a new line; false: Ctrl+Enter sends, Enter a new line. */
  enter_sends: boolean;
  /** The message view's font size and line height (Zulip's information density). */
  web_font_size_px: number;
  web_line_height_percent: number;
  [name: string]: unknown;
}

export const DEFAULT_SETTINGS: UserSettings = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_audible_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  notification_sound: 'zulip',
  color_scheme: 1,
  twenty_four_hour_time: false,
  timezone: '',
  default_language: 'en',
  enter_sends: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
};

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export const settings = signal<UserSettings>({ ...DEFAULT_SETTINGS });
/** Visibility policy by topic (`<stream id>:<topic, lower case>`): only topics with a policy are listed. */
export const userTopics = signal(new Map<string, number>());
export const mutedUsers = signal(new Set<number>());
export const alertWords = signal<string[]>([]);
export const statuses = signal(new Map<number, UserStatus>());
/** One's own email address as one signs in with it (/register's delivery_email; others may see another). */
export const deliveryEmail = signal('');

/**
 * Settings changed here whose event has not come back yet: an older event of the same setting (from a change made
 * a moment before) must not undo the newer choice on screen.
 */
const pendingSettings = new Map<string, unknown>();

/** Shows a setting's new value at once, before the server's event confirms it; `undo` puts it back after a refusal. */
export function setSettingLocally(name: string, value: unknown): { undo: () => void } {
  const before = settings.value[name];
  pendingSettings.set(name, value);
  settings.value = { ...settings.value, [name]: value };
  return {
    undo: () => {
      pendingSettings.delete(name);
      settings.value = { ...settings.value, [name]: before };
    },
  };
}

function settingChanged(name: string, value: unknown): void {
  if (pendingSettings.has(name)) {
    if (pendingSettings.get(name) !== value) return;
    pendingSettings.delete(name);
  }
  settings.value = { ...settings.value, [name]: value };
}

/** Topic names are case-insensitive in Zulip. */
export const userTopicKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;
export const topicPolicy = (streamId: number, topic: string): number =>
  userTopics.value.get(userTopicKey(streamId, topic)) ?? Policy.inherit;

export function applyPersonalRegister(state: RegisterState): void {
  deliveryEmail.value = typeof state.delivery_email === 'string' ? state.delivery_email : '';
  settings.value = { ...DEFAULT_SETTINGS, ...(state.user_settings ?? {}) };
  const topics = state.user_topics ?? [];
  userTopics.value = new Map(
    topics
      .filter((t) => t.visibility_policy !== 0)
      .map((t) => [userTopicKey(t.stream_id, t.topic_name), t.visibility_policy]),
  );
  mutedUsers.value = new Set((state.muted_users ?? []).map((m) => m.id));
  alertWords.value = state.alert_words ?? [];
  statuses.value = new Map(Object.entries(state.user_status ?? {}).map(([id, s]) => [Number(id), s]));
}

export function onUserSettings(event: UserSettingsEvent): void {
  settingChanged(event.property, event.value);
}

/** The older forms of the same change. */
export function onUpdateDisplaySettings(event: UpdateDisplaySettingsEvent): void {
  settingChanged(event.setting_name, event.setting);
}

export function onUpdateGlobalNotifications(event: UpdateGlobalNotificationsEvent): void {
  settingChanged(event.notification_name, event.setting);
}

export function onUserTopic(event: UserTopicEvent): void {
  const key = userTopicKey(event.stream_id, event.topic_name);
  const next = new Map(userTopics.value);
  if (event.visibility_policy === Policy.inherit) next.delete(key);
  else next.set(key, event.visibility_policy);
  userTopics.value = next;
}

export function onMutedUsers(event: MutedUsersEvent): void {
  mutedUsers.value = new Set(event.muted_users.map((m) => m.id));
}

export function onAlertWords(event: AlertWordsEvent): void {
  alertWords.value = event.alert_words;
}

export function onUserStatus(event: UserStatusEvent): void {
  // Only the fields the user set (a received event also has its queue id, which is no part of the status).
  const status: UserStatus = {
    ...(event.away !== undefined && { away: event.away }),
    ...(event.status_text !== undefined && { status_text: event.status_text }),
    ...(event.emoji_name !== undefined && { emoji_name: event.emoji_name }),
    ...(event.emoji_code !== undefined && { emoji_code: event.emoji_code }),
    ...(event.reaction_type !== undefined && { reaction_type: event.reaction_type }),
  };
  const id = event.user_id;
  statuses.value = new Map(statuses.value).set(id, { ...statuses.value.get(id), ...status });
}
