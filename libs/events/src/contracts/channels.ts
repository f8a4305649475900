import { z } from 'zod';
import { defineEvent } from '../envelope.js';
import { groupSettingValue } from './groups.js';

const ids = z.array(z.number().int());

/** A channel as Zulip's stream dict describes it (the messaging service owns channels). */
export const channelRecord = z.object({
  stream_id: z.number().int(),
  realm_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  /** Unix time in seconds. */
  date_created: z.number().int(),
  creator_id: z.number().int().nullable(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  history_public_to_subscribers: z.boolean(),
  message_retention_days: z.number().int().nullable(),
  topics_policy: z.string(),
  first_message_id: z.number().int().nullable(),
  folder_id: z.number().int().nullable(),
  is_archived: z.boolean(),
  subscriber_count: z.number().int(),
  /**
   * Zulip's legacy stream_post_policy, from can_send_message_group as the owner reads it (a system group's name),
   * which the API form of the permissions below (group ids) no longer shows. Absent from records written before it.
   */
  stream_post_policy: z.number().int().optional(),
  /** Group-valued channel permissions (can_send_message_group, ...), in the API's form. */
  permissions: z.record(z.string(), groupSettingValue),
});
export type ChannelRecord = z.infer<typeof channelRecord>;

/** Channels were created; `user_ids` are the users who can see them (Zulip's `stream` create event). */
export const streamCreated = defineEvent(
  'stream.created',
  z.object({ streams: z.array(channelRecord), user_ids: ids }),
);

/** A user's personal settings for one channel. */
export const subscriptionRecord = z.object({
  user_id: z.number().int(),
  stream_id: z.number().int(),
  color: z.string(),
  is_muted: z.boolean(),
  pin_to_top: z.boolean(),
  desktop_notifications: z.boolean().nullable(),
  audible_notifications: z.boolean().nullable(),
  push_notifications: z.boolean().nullable(),
  email_notifications: z.boolean().nullable(),
  wildcard_mentions_notify: z.boolean().nullable(),
});

/**
 * Users were subscribed: `changes` says who joined which channel, `subscriptions` carries the new subscribers'
 * personal settings, and `streams` the channels after the change (for `subscription` add and `peer_add` events).
 */
export const subscriptionAdded = defineEvent(
  'subscription.added',
  z.object({
    changes: z.array(z.object({ stream_id: z.number().int(), user_ids: ids })),
    subscriptions: z.array(subscriptionRecord),
    streams: z.array(channelRecord),
  }),
);

/** Users were unsubscribed (for `subscription` remove and `peer_remove` events). */
export const subscriptionRemoved = defineEvent(
  'subscription.removed',
  z.object({
    changes: z.array(z.object({ stream_id: z.number().int(), user_ids: ids })),
    streams: z.array(channelRecord),
  }),
);

/** One changed property of a channel, as Zulip's `stream` update event carries it. */
export const channelChange = z.object({
  property: z.string(),
  value: z.unknown(),
  /** Description changes carry the rendered description; privacy changes the other privacy fields. */
  rendered_description: z.string().optional(),
  history_public_to_subscribers: z.boolean().optional(),
  is_web_public: z.boolean().optional(),
});

/**
 * A channel's settings changed (PATCH /streams/{id}, archiving): `stream` is the channel after the change, `changes`
 * one entry per changed property (Zulip sends one `stream` update event each), `user_ids` who may see the channel.
 */
export const streamUpdated = defineEvent(
  'stream.updated',
  z.object({
    stream: channelRecord,
    changes: z.array(channelChange),
    user_ids: ids,
    /** Users who could see the channel before the change and cannot now (it became private): told it is gone. */
    lost_user_ids: ids.default([]),
  }),
);

/** A user changed their own settings for a channel (Zulip's `subscription` update event, for them only). */
export const subscriptionUpdated = defineEvent(
  'subscription.updated',
  z.object({
    user_id: z.number().int(),
    stream_id: z.number().int(),
    changes: z.array(z.object({ property: z.string(), value: z.unknown() })),
  }),
);
