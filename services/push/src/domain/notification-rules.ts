import type { contracts, PayloadOf } from '@confab/events';

/**
 * Who a new message notifies, and why: Zulip's rules (zerver/lib/notification_data.py
 * UserMessageNotificationsData, zerver/actions/message_send.py get_recipient_info), as pure functions of the
 * message.sent event, the receiver's personal settings and whether they are away.
 */

/** The personal settings notifications depend on (the settings service owns them; Zulip's defaults). */
export interface NotificationSettings {
  enable_offline_push_notifications: boolean;
  enable_online_push_notifications: boolean;
  enable_stream_push_notifications: boolean;
  enable_offline_email_notifications: boolean;
  enable_stream_email_notifications: boolean;
  wildcard_mentions_notify: boolean;
  enable_followed_topic_push_notifications: boolean;
  enable_followed_topic_email_notifications: boolean;
  enable_followed_topic_wildcard_mentions_notify: boolean;
  /** How long missed-message emails of a user wait to be sent together, in seconds. */
  email_notifications_batching_period_seconds: number;
  /** Whether missed-message emails quote the messages. */
  message_content_in_email_notifications: boolean;
  /** 1 automatic, 2 always, 3 never: the organization's name in the subject of missed-message emails. */
  realm_name_in_email_notifications_policy: number;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_stream_push_notifications: false,
  enable_offline_email_notifications: true,
  enable_stream_email_notifications: false,
  wildcard_mentions_notify: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  email_notifications_batching_period_seconds: 120,
  message_content_in_email_notifications: true,
  realm_name_in_email_notifications_policy: 1,
};

export const NOTIFICATION_SETTING_NAMES = Object.keys(DEFAULT_NOTIFICATION_SETTINGS) as (keyof NotificationSettings)[];

/** The settings of a user_settings.changed payload (the whole set) that notifications use; others keep defaults. */
export function notificationSettingsFrom(settings: Record<string, unknown>): NotificationSettings {
  const out: Record<string, unknown> = { ...DEFAULT_NOTIFICATION_SETTINGS };
  for (const name of NOTIFICATION_SETTING_NAMES) {
    const value = settings[name];
    if (typeof value === typeof DEFAULT_NOTIFICATION_SETTINGS[name]) out[name] = value;
  }
  return out as unknown as NotificationSettings;
}

/** Zulip's NotificationTriggers, in the order of precedence get_push_notification_trigger gives them. */
export type NotificationTrigger =
  | 'private_message'
  | 'mentioned'
  | 'topic_wildcard_mentioned_in_followed_topic'
  | 'stream_wildcard_mentioned_in_followed_topic'
  | 'topic_wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'followed_topic_push_notify'
  | 'stream_push_notify'
  | 'followed_topic_email_notify'
  | 'stream_email_notify';

export const VISIBILITY_MUTED = 1;
export const VISIBILITY_UNMUTED = 2;
export const VISIBILITY_FOLLOWED = 3;

/** One receiver of a sent message, as far as notifications care. */
export interface Receiver {
  userId: number;
  flags: readonly string[];
  isBot: boolean;
  settings: NotificationSettings;
  /** Their subscription's own settings (null: the user's default); absent for a direct message. */
  subscription: contracts.MessageNotifyFacts['subscriptions'][string] | null;
  /** Their visibility policy for the message's topic (0: none). */
  topicPolicy: number;
}

/** What a message is, as far as notifications care. */
export interface SentMessageFacts {
  senderId: number;
  isPrivate: boolean;
}

/**
 * Zulip's user_allows_notifications_in_StreamTopic: a muted topic never notifies, a muted channel only in an
 * unmuted topic; otherwise the subscription's own value, else the user's default.
 */
export function allowsInChannel(
  subscription: Receiver['subscription'],
  topicPolicy: number,
  own: boolean | null | undefined,
  userDefault: boolean,
): boolean {
  if (topicPolicy === VISIBILITY_MUTED) return false;
  if (subscription?.muted && topicPolicy !== VISIBILITY_UNMUTED) return false;
  return own ?? userDefault;
}

/** The per-user booleans of Zulip's UserMessageNotificationsData, for one channel of delivery. */
interface Reasons {
  dm: boolean;
  mention: boolean;
  topicWildcardInFollowed: boolean;
  streamWildcardInFollowed: boolean;
  topicWildcard: boolean;
  streamWildcard: boolean;
  followedTopic: boolean;
  stream: boolean;
}

function reasons(message: SentMessageFacts, r: Receiver, medium: 'push' | 'email'): Reasons {
  const s = r.settings;
  const personal = medium === 'push' ? s.enable_offline_push_notifications : s.enable_offline_email_notifications;
  const flags = new Set(r.flags);
  const channel = !message.isPrivate;
  const followed = channel && r.topicPolicy === VISIBILITY_FOLLOWED;
  // Wildcard mentions obey the personal-mention settings, for those who let them notify (subscription, else user).
  const wildcardNotify =
    channel && allowsInChannel(r.subscription, r.topicPolicy, r.subscription?.wildcard, s.wildcard_mentions_notify);
  const followedWildcardNotify = followed && s.enable_followed_topic_wildcard_mentions_notify;
  const topicWildcard = flags.has('topic_wildcard_mentioned');
  const streamWildcard = flags.has('stream_wildcard_mentioned');
  const streamSetting =
    medium === 'push'
      ? allowsInChannel(r.subscription, r.topicPolicy, r.subscription?.push, s.enable_stream_push_notifications)
      : allowsInChannel(r.subscription, r.topicPolicy, r.subscription?.email, s.enable_stream_email_notifications);
  const followedSetting =
    medium === 'push' ? s.enable_followed_topic_push_notifications : s.enable_followed_topic_email_notifications;
  return {
    dm: message.isPrivate && personal,
    // Alert words notify as a personal mention does (Zulip's "DMs, mentions, and alerts" settings).
    mention: personal && (flags.has('mentioned') || flags.has('has_alert_word')),
    topicWildcardInFollowed: personal && followedWildcardNotify && topicWildcard,
    streamWildcardInFollowed: personal && followedWildcardNotify && streamWildcard,
    topicWildcard: personal && wildcardNotify && topicWildcard,
    streamWildcard: personal && wildcardNotify && streamWildcard,
    followedTopic: followed && followedSetting,
    stream: channel && streamSetting,
  };
}

/** Never the sender, a bot, or someone for whom the message arrived read (a sender they muted). */
function triviallyNot(message: SentMessageFacts, r: Receiver): boolean {
  return r.userId === message.senderId || r.isBot || r.flags.includes('read');
}

/**
 * Zulip's get_push_notification_trigger: why the message notifies the receiver's phones, or null. `away` is
 * whether they are away (no active client); someone present is notified only with enable_online_push_notifications.
 */
export function pushTrigger(message: SentMessageFacts, r: Receiver, away: boolean): NotificationTrigger | null {
  if (!away && !r.settings.enable_online_push_notifications) return null;
  if (triviallyNot(message, r)) return null;
  return triggerOf(reasons(message, r, 'push'), 'push');
}

/** Zulip's get_email_notification_trigger: only for someone away. */
export function emailTrigger(message: SentMessageFacts, r: Receiver, away: boolean): NotificationTrigger | null {
  if (!away || triviallyNot(message, r)) return null;
  return triggerOf(reasons(message, r, 'email'), 'email');
}

/** The strongest reason, in Zulip's order of precedence, under its trigger name for the medium. */
function triggerOf(x: Reasons, medium: 'push' | 'email'): NotificationTrigger | null {
  if (x.dm) return 'private_message';
  if (x.mention) return 'mentioned';
  if (x.topicWildcardInFollowed) return 'topic_wildcard_mentioned_in_followed_topic';
  if (x.streamWildcardInFollowed) return 'stream_wildcard_mentioned_in_followed_topic';
  if (x.topicWildcard) return 'topic_wildcard_mentioned';
  if (x.streamWildcard) return 'stream_wildcard_mentioned';
  if (x.followedTopic) return medium === 'push' ? 'followed_topic_push_notify' : 'followed_topic_email_notify';
  if (x.stream) return medium === 'push' ? 'stream_push_notify' : 'stream_email_notify';
  return null;
}

/** A receiver the message would notify if they were away, and why. */
export interface Candidate {
  userId: number;
  trigger: NotificationTrigger;
}

/** A receiver the message would notify by push if they were away, and whether it notifies them when present. */
export interface PushCandidate extends Candidate {
  /** Notified even while present (enable_online_push_notifications). */
  evenIfPresent: boolean;
}

type SentEvent = Pick<PayloadOf<typeof contracts.messageSent>, 'message' | 'user_ids' | 'flags' | 'notify'>;

/** Each receiver of the event but the sender and bots, as the rules see them. */
function receiversOf(event: SentEvent, settingsOf: (userId: number) => NotificationSettings): Receiver[] {
  const bots = new Set(event.notify?.bot_ids ?? []);
  return event.user_ids
    .filter((userId) => userId !== event.message.sender_id && !bots.has(userId))
    .map((userId) => ({
      userId,
      flags: event.flags[String(userId)] ?? [],
      isBot: false,
      settings: settingsOf(userId),
      subscription: event.notify?.subscriptions[String(userId)] ?? null,
      topicPolicy: event.notify?.topic_policies[String(userId)] ?? 0,
    }));
}

const factsOf = (event: SentEvent): SentMessageFacts => ({
  senderId: event.message.sender_id,
  isPrivate: event.message.type === 'private',
});

/**
 * The receivers of a message.sent event its push notifications may reach: those it would notify if they were away
 * (whether they are is asked later, only of these, as Zulip's get_active_presence_idle_user_ids does).
 */
export function pushCandidates(
  event: SentEvent,
  settingsOf: (userId: number) => NotificationSettings,
): PushCandidate[] {
  const message = factsOf(event);
  const out: PushCandidate[] = [];
  for (const receiver of receiversOf(event, settingsOf)) {
    const trigger = pushTrigger(message, receiver, true);
    if (trigger)
      out.push({ userId: receiver.userId, trigger, evenIfPresent: receiver.settings.enable_online_push_notifications });
  }
  return out;
}

/** The receivers a missed-message email of the message may reach if they are away (Zulip's email triggers). */
export function emailCandidates(event: SentEvent, settingsOf: (userId: number) => NotificationSettings): Candidate[] {
  const message = factsOf(event);
  const out: Candidate[] = [];
  for (const receiver of receiversOf(event, settingsOf)) {
    const trigger = emailTrigger(message, receiver, true);
    if (trigger) out.push({ userId: receiver.userId, trigger });
  }
  return out;
}
