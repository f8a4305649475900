/** The part of /register's answer the client reads (Zulip's initial state; the event types fetched are all of them). */
import type { RealmEmojiDict } from '@confab/zulip';
import type { Linkifier } from './admin';
import type { Bot, StoredGroup } from './integrations';
import type { Draft, Presence, ScheduledMessage, Stream, Subscription, UnreadMsgs, User } from './model';
import type { UserSettings, UserStatus } from './personal';

export interface RegisterState {
  queue_id: string;
  last_event_id: number;
  user_id?: number;
  /** Owners too. */
  is_admin?: boolean;
  role?: number;
  delivery_email?: string;
  realm_users?: User[];
  realm_non_active_users?: User[];
  subscriptions?: Subscription[];
  streams?: Stream[];
  realm_emoji?: Record<string, RealmEmojiDict>;
  drafts?: Draft[];
  scheduled_messages?: ScheduledMessage[];
  presences?: Record<string, Presence>;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
  unread_msgs?: UnreadMsgs;
  recent_private_conversations?: { user_ids: number[]; max_message_id: number }[];
  server_emoji_data_url?: string;
  user_settings?: Partial<UserSettings>;
  user_topics?: { stream_id: number; topic_name: string; visibility_policy: number }[];
  muted_users?: { id: number }[];
  alert_words?: string[];
  user_status?: Record<string, UserStatus>;
  realm_user_groups?: (StoredGroup & { id: number; name: string; is_system_group: boolean })[];
  realm_default_streams?: number[];
  realm_linkifiers?: Linkifier[];
  realm_bots?: Bot[];
  /** The organization's settings (`realm_name`, `realm_enable_read_receipts`, …) and everything else. */
  [key: string]: unknown;
}
