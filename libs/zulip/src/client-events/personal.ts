/** The events about one's own state: settings, topics, muted users, alert words, drafts and other records. */
import type {
  AttachmentDict,
  DraftDict,
  MutedUserDict,
  NavigationViewDict,
  ReminderDict,
  SavedSnippetDict,
  ScheduledMessageDict,
} from './records.js';

export type SettingValue = boolean | number | string | null;

export interface UserSettingsEvent {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: SettingValue;
  /** With a new default_language: its name in that language. */
  language_name?: string;
}

/** Deprecated forms of a user_settings change, for clients without the user_settings_object capability. */
export interface UpdateDisplaySettingsEvent {
  type: 'update_display_settings';
  user: string;
  setting_name: string;
  setting: SettingValue;
  language_name?: string;
}

export interface UpdateGlobalNotificationsEvent {
  type: 'update_global_notifications';
  user: string;
  notification_name: string;
  setting: SettingValue;
}

export interface UserTopicEvent {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  /** 0 inherit, 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: number;
}

export interface MutedUsersEvent {
  type: 'muted_users';
  muted_users: MutedUserDict[];
}

export interface AlertWordsEvent {
  type: 'alert_words';
  alert_words: string[];
}

export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: DraftDict[] }
  | { type: 'drafts'; op: 'update'; draft: DraftDict }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ScheduledMessageDict[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ScheduledMessageDict }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export type RemindersEvent =
  | { type: 'reminders'; op: 'add'; reminders: ReminderDict[] }
  | { type: 'reminders'; op: 'remove'; reminder_id: number };

export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: SavedSnippetDict }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: NavigationViewDict }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: { is_pinned?: boolean; name?: string } }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

export type AttachmentEvent =
  | { type: 'attachment'; op: 'add' | 'update'; attachment: AttachmentDict; upload_space_used: number }
  | { type: 'attachment'; op: 'remove'; attachment: { id: number }; upload_space_used: number };

/** Zulip's has_zoom_token and its neighbours, as docs/api.md names it. */
export interface MeetingTokenEvent {
  type: 'has_meetingprovider_token';
  value: boolean;
}

export interface PushDeviceEvent {
  type: 'push_device';
  push_account_id: string;
  status: 'pending' | 'active' | 'failed';
  error_code?: string;
}

/** A client device: add, remove, or update with only the fields that changed. */
export interface DeviceEvent {
  type: 'device';
  op: 'add' | 'remove' | 'update';
  device_id: number;
  push_key_id?: number | null;
  push_token_id?: string | null;
  pending_push_token_id?: string | null;
  push_token_last_updated_timestamp?: number | null;
  push_registration_error_code?: string | null;
}

export type PersonalEvents =
  | UserSettingsEvent
  | UpdateDisplaySettingsEvent
  | UpdateGlobalNotificationsEvent
  | UserTopicEvent
  | MutedUsersEvent
  | AlertWordsEvent
  | DraftsEvent
  | ScheduledMessagesEvent
  | RemindersEvent
  | SavedSnippetsEvent
  | NavigationViewEvent
  | AttachmentEvent
  | MeetingTokenEvent
  | PushDeviceEvent
  | DeviceEvent;
