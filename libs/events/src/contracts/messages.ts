import { z } from 'zod';
import { defineEvent } from '../envelope.js';

const ids = z.array(z.number().int());

/** A direct-message participant as Zulip's `display_recipient` lists them. */
export const displayRecipientUser = z.object({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  is_mirror_dummy: z.boolean(),
});

/**
 * A message as Zulip's message dict has it, before per-client shaping: `subject` is the stored topic ('' is the
 * empty topic, which clients without `empty_topic_name` see as the realm's display name), both the Markdown
 * source and its HTML are carried (clients choose with `apply_markdown`), and `avatar_url` is left to the
 * delivering service (it depends on `client_gravatar`).
 */
export const messageRecord = z.object({
  id: z.number().int(),
  type: z.enum(['stream', 'private']),
  sender_id: z.number().int(),
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_realm_str: z.string(),
  recipient_id: z.number().int(),
  /** Channel messages only. */
  stream_id: z.number().int().optional(),
  /** The channel's name, or the direct-message participants. */
  display_recipient: z.union([z.string(), z.array(displayRecipientUser)]),
  subject: z.string(),
  topic_links: z.array(z.object({ text: z.string(), url: z.string() })),
  content: z.string(),
  rendered_content: z.string(),
  timestamp: z.number().int(),
  client: z.string(),
  is_me_message: z.boolean(),
  reactions: z.array(z.unknown()),
  submessages: z.array(z.unknown()),
  /** The sender's uploaded avatar (relative URL with `?version=N`); absent when the sender has the default one. */
  sender_avatar_url: z.string().optional(),
});
export type MessageRecord = z.infer<typeof messageRecord>;

/** A receiver's subscription settings that notifications depend on (null: the user's default). */
export const subscriptionNotifySettings = z.object({
  push: z.boolean().nullable(),
  email: z.boolean().nullable(),
  wildcard: z.boolean().nullable(),
  muted: z.boolean(),
});

export const messageNotifyFacts = z.object({
  bot_ids: ids,
  subscriptions: z.record(z.string(), subscriptionNotifySettings),
  topic_policies: z.record(z.string(), z.number().int()),
});
export type MessageNotifyFacts = z.infer<typeof messageNotifyFacts>;

/**
 * A message was sent. `user_ids` are everyone who received it (the sender first when among them); `flags` gives
 * the personal flags of those whose flags are not empty. `local_id`/`sender_queue_id` let the sender's own queue
 * receive `local_message_id`. `stream` describes the channel for queues that follow all public channels.
 */
export const messageSent = defineEvent(
  'message.sent',
  z.object({
    message: messageRecord,
    user_ids: ids,
    flags: z.record(z.string(), z.array(z.string())),
    stream: z.object({ name: z.string(), invite_only: z.boolean(), is_web_public: z.boolean() }).nullable(),
    local_id: z.string().nullable(),
    sender_queue_id: z.string().nullable(),
    /**
     * What notifications need to know of the receivers beyond their flags (Zulip's get_recipient_info), filled in by
     * the send statement: the receivers who are bots, and of a channel message the subscriptions whose notification
     * settings differ from "as the user's defaults, not muted" and the receivers' visibility policies for its topic
     * (1 muted, 2 unmuted, 3 followed). Absent in events from before it existed.
     */
    notify: messageNotifyFacts.optional(),
  }),
);

/** Messages were deleted; `user_ids` are those who could see them (Zulip's `delete_message` event recipients). */
export const messageDeleted = defineEvent(
  'message.deleted',
  z.object({
    message_ids: ids,
    message_type: z.enum(['stream', 'private']),
    stream_id: z.number().int().optional(),
    topic: z.string().optional(),
    user_ids: ids,
  }),
);

/** A user's personal flags on some messages changed (Zulip's `update_message_flags` event, for that user only). */
export const messageFlagsChanged = defineEvent(
  'message.flags_changed',
  z.object({
    user_id: z.number().int(),
    op: z.enum(['add', 'remove']),
    flag: z.string(),
    messages: ids,
    /**
     * Marking messages unread (flag read, op remove): what clients need to put each one back into their unread
     * counts (Zulip's message_details), keyed by message id.
     */
    message_details: z
      .record(
        z.string(),
        z.object({
          type: z.enum(['stream', 'private']),
          mentioned: z.boolean().optional(),
          user_ids: ids.optional(),
          stream_id: z.number().int().optional(),
          topic: z.string().optional(),
        }),
      )
      .optional(),
  }),
);

/** One message's entry in message.flags_changed's message_details. */
export type MessageFlagDetail = NonNullable<z.infer<typeof messageFlagsChanged.schema>['message_details']>[string];

/**
 * A message was edited or moved (Zulip's `update_message` event). `flags` names every user to tell and their flags
 * on the edited message after the edit (subscribers without a row get `["read"]`, as Zulip sends them). The
 * content fields are present only when the content changed; the channel and topic fields only for channel
 * messages, `orig_subject`/`subject` only when the topic changed, `new_stream_id` only when the channel did.
 */
export const messageUpdated = defineEvent(
  'message.updated',
  z.object({
    user_id: z.number().int().nullable(),
    edit_timestamp: z.number().int(),
    message_id: z.number().int(),
    message_ids: ids,
    rendering_only: z.boolean(),
    flags: z.record(z.string(), z.array(z.string())),
    stream_name: z.string().optional(),
    stream_id: z.number().int().optional(),
    new_stream_id: z.number().int().optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).optional(),
    orig_subject: z.string().optional(),
    subject: z.string().optional(),
    topic_links: z.array(z.object({ text: z.string(), url: z.string() })).optional(),
    orig_content: z.string().optional(),
    orig_rendered_content: z.string().optional(),
    content: z.string().optional(),
    rendered_content: z.string().optional(),
    is_me_message: z.boolean().optional(),
    /**
     * What notifications of the edit need (Zulip's update_message event for the notification code, from
     * update_message_content), present only when the content changed: the message as it is after the edit (the
     * sender, the channel or participants, the new content), the receivers who had a mention (personal, group,
     * channel or topic wildcard) before it (Zulip's prior_mention_user_ids; their flags after it are in `flags`),
     * and the notification facts as message.sent's `notify` has them, for the message's topic after the edit.
     * Absent in events from before it existed.
     */
    notify: z
      .object({
        message: messageRecord,
        prior_mention_user_ids: ids,
        facts: messageNotifyFacts,
      })
      .optional(),
  }),
);

/** A widget's data or an update of it was attached to a message (Zulip's `submessage` event), for `user_ids`. */
export const submessageAdded = defineEvent(
  'submessage.added',
  z.object({
    message_id: z.number().int(),
    submessage_id: z.number().int(),
    sender_id: z.number().int(),
    msg_type: z.string(),
    content: z.string(),
    user_ids: ids,
  }),
);
