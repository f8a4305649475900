/**
 * The dictionaries Zulip's events carry (and /register and the REST API return): a message, a channel, a
 * subscription, a person, a user group, and the small records of one's own state. Types only.
 */

/** Who holds a group-valued permission: a group id, or an anonymous group of users and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  /** `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`. */
  reaction_type: string;
  user_id: number;
}

export interface Submessage {
  id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy?: boolean;
}

export interface TopicLink {
  text: string;
  url: string;
}

/** Zulip's message dict (MessageDict.finalize_payload), as a `message` event and GET /messages carry it. */
export interface ClientMessage {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  sender_realm_str: string;
  recipient_id: number;
  /** Channel messages only. */
  stream_id?: number;
  /** The channel's name, or the direct-message participants. */
  display_recipient: string | DisplayRecipientUser[];
  subject: string;
  topic_links: TopicLink[];
  timestamp: number;
  client: string;
  is_me_message: boolean;
  reactions: Reaction[];
  submessages: Submessage[];
  avatar_url: string | null;
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
}

/** Zulip's stream dict (stream create events, the channel part of a subscription). */
export interface StreamDict {
  stream_id: number;
  name: string;
  is_archived: boolean;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  /** Zulip's legacy post policy: 1 everyone, 2 administrators, 3 full members, 4 moderators. */
  stream_post_policy: number;
  is_announcement_only: boolean;
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  topics_policy: string;
  first_message_id: number | null;
  folder_id: number | null;
  is_recently_active: boolean;
  subscriber_count: number;
  stream_weekly_traffic: number | null;
  /** The group-valued permissions (can_send_message_group, can_administer_channel_group, …). */
  [permission: `can_${string}_group`]: GroupSettingValue;
}

/** Zulip's subscription dict: the stream dict and the user's own settings for the channel. */
export interface SubscriptionDict extends StreamDict {
  color: string;
  is_muted: boolean;
  /** Deprecated: the opposite of is_muted. */
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** Zulip's user object, as a realm_user add event carries it. */
export interface PersonDict {
  user_id: number;
  email: string;
  /** null when the user's email_address_visibility hides it from the receiver. */
  delivery_email: string | null;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  bot_type: number | null;
  /** Bots only. */
  bot_owner_id?: number | null;
  role: number;
  timezone: string;
  avatar_url: string | null;
  avatar_version: number;
  is_imported_stub: boolean;
  /** Humans only. */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

/** The changed part of a person (realm_user update: the user id and one change). */
export interface PersonUpdate {
  user_id: number;
  full_name?: string;
  timezone?: string;
  role?: number;
  is_active?: boolean;
  avatar_source?: string;
  avatar_url?: string | null;
  avatar_url_medium?: string | null;
  avatar_version?: number;
  custom_profile_field?: { id: number; value: string | null; rendered_value?: string | null };
}

/** A user group as the user_group add event and realm_user_groups carry it. */
export interface UserGroupDict {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  date_created: number;
  is_system_group: boolean;
  deactivated: boolean;
  can_add_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
}

export interface DraftDict {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface ScheduledMessageDict {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** A channel id, or the recipients' user ids. */
  to: number | number[];
  /** Channel messages only. */
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface ReminderDict {
  reminder_id: number;
  type: 'private';
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

export interface SavedSnippetDict {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

export interface NavigationViewDict {
  fragment: string;
  is_pinned: boolean;
  /** null for built-in views. */
  name: string | null;
}

export interface AttachmentDict {
  id: number;
  name: string;
  path_id: string;
  size: number;
  /** Unix milliseconds. */
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

export interface RealmEmojiDict {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

export interface RealmExportDict {
  id: number;
  acting_user_id: number;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  /** 1 public, 2 standard. */
  export_type: number;
}

export interface LinkifierDict {
  id: number;
  pattern: string;
  url_template: string;
}

export interface PlaygroundDict {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface ChannelFolderDict {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  creator_id: number | null;
  date_created: number;
  is_archived: boolean;
  order: number;
}

export interface MutedUserDict {
  id: number;
  timestamp: number;
}

/** A user's status: only the fields they set. */
export interface UserStatusDict {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}
