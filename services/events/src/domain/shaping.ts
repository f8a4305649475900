import { messageForClient, type contracts } from '@confab/events';
import {
  STREAM_POST_POLICY_ADMINS,
  STREAM_POST_POLICY_EVERYONE,
  type ClientMessage,
  type StreamDict,
  type SubscriptionDict,
  type UserGroupDict,
} from '@confab/zulip';
import type { QueueDescriptor } from './descriptor.js';

/** What a builder knows about the queue it shapes an event for. */
export interface QueueContext {
  queueId: string;
  queue: QueueDescriptor;
  /** The realm's name for the empty topic, shown to clients without the empty_topic_name capability. */
  emptyTopicDisplayName: string;
}

/** The empty topic as this client can show it. */
export function topicFor(ctx: QueueContext, topic: string): string {
  return topic === '' && !ctx.queue.capabilities.emptyTopicName ? ctx.emptyTopicDisplayName : topic;
}

/** A message as this queue's client reads it (`messageForClient` of `@confab/events`). */
export function clientMessage(record: contracts.MessageRecord, ctx: QueueContext): ClientMessage {
  // The dict is built field by field from the validated record (`reactions` and `submessages` are messaging's dicts,
  // which the contract checks as arrays only): its type is the message dict's.
  const dict = messageForClient(record, {
    applyMarkdown: ctx.queue.applyMarkdown,
    clientGravatar: ctx.queue.clientGravatar,
    emptyTopicAs: ctx.queue.capabilities.emptyTopicName ? null : ctx.emptyTopicDisplayName,
  });
  return dict as unknown as ClientMessage;
}

/** Zulip's stream dict (stream create events and the channel part of subscription add events). */
export function streamDict(channel: contracts.ChannelRecord): StreamDict {
  // The owner's reading of who may post (the same function GET /streams uses); older records say nothing: everyone.
  const postPolicy = channel.stream_post_policy ?? STREAM_POST_POLICY_EVERYONE;
  return {
    stream_id: channel.stream_id,
    name: channel.name,
    is_archived: channel.is_archived,
    description: channel.description,
    rendered_description: channel.rendered_description,
    date_created: channel.date_created,
    creator_id: channel.creator_id,
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === STREAM_POST_POLICY_ADMINS,
    message_retention_days: channel.message_retention_days,
    history_public_to_subscribers: channel.history_public_to_subscribers,
    topics_policy: channel.topics_policy,
    first_message_id: channel.first_message_id,
    folder_id: channel.folder_id,
    is_recently_active: true,
    ...channel.permissions,
    subscriber_count: channel.subscriber_count,
    stream_weekly_traffic: null,
  };
}

/** The user's own settings of a subscription (the subscription dict without the channel's fields). */
type SubscriptionRecord = Omit<SubscriptionDict, keyof StreamDict | 'in_home_view'>;

/** Zulip's subscription dict: the stream dict plus the user's own settings for it. */
export function subscriptionDict(channel: contracts.ChannelRecord, sub: SubscriptionRecord): SubscriptionDict {
  return {
    ...streamDict(channel),
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
  };
}

/** Seconds since the epoch from an ISO date (or a number already in seconds). */
export function unixSeconds(value: string | number): number {
  return typeof value === 'number' ? value : Math.floor(new Date(value).getTime() / 1000);
}

/** A user group as Zulip's user_group add event and realm_user_groups carry it. */
export function apiGroup(
  group: contracts.GroupRecord,
  directMembers: readonly number[],
  directSubgroups: readonly number[],
): UserGroupDict {
  return {
    id: group.group_id,
    name: group.name,
    description: group.description,
    members: [...directMembers],
    direct_subgroup_ids: [...directSubgroups],
    creator_id: group.creator_id,
    date_created: unixSeconds(group.date_created),
    is_system_group: group.is_system_group,
    deactivated: group.deactivated,
    can_add_members_group: group.can_add_members_group,
    can_join_group: group.can_join_group,
    can_leave_group: group.can_leave_group,
    can_manage_group: group.can_manage_group,
    can_mention_group: group.can_mention_group,
    can_remove_members_group: group.can_remove_members_group,
  };
}
