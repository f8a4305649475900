import { reactionTypeOnWire, type contracts, type PayloadOf } from '@confab/events';
import type {
  DeleteMessageEvent,
  MessageEvent,
  MessageFlagDetail,
  ReactionEvent,
  SubmessageEvent,
  TypingEvent,
  UpdateMessageEvent,
} from '@confab/zulip';
import { acceptsType } from '../domain/descriptor.js';
import { matchesNarrow } from '../domain/narrow.js';
import { clientMessage, topicFor, type QueueContext } from '../domain/shaping.js';
import type { Delivery } from './fanout.js';

type MessageSent = PayloadOf<typeof contracts.messageSent>;

/**
 * Zulip's process_message_event: each recipient's queues get the message with that user's flags, queues following
 * all public channels get public-channel messages with no flags, and only the queue named at sending time gets
 * `local_message_id`.
 */
export function messageSent(payload: MessageSent, realmId: number): Delivery[] {
  const recipients = new Set(payload.user_ids);
  // Queues that would see the same event share one object (serialised once), as Zulip caches client payloads.
  const shared = new Map<string, MessageEvent>();
  const build =
    (withFlags: boolean): Delivery['build'] =>
    (ctx) => {
      if (!acceptsType(ctx.queue, 'message')) return [];
      // A recipient's own queue is handled by the recipients' delivery, with their flags.
      if (!withFlags && recipients.has(ctx.queue.userId)) return [];
      const flags = withFlags ? (payload.flags[String(ctx.queue.userId)] ?? []) : [];
      if (
        !matchesNarrow(
          ctx.queue.narrow,
          {
            type: payload.message.type,
            display_recipient: payload.message.display_recipient,
            subject: payload.message.subject,
            sender_email: payload.message.sender_email,
          },
          flags,
        )
      ) {
        return [];
      }
      const isSenderQueue = payload.local_id !== null && payload.sender_queue_id === ctx.queueId;
      const { applyMarkdown, clientGravatar, capabilities } = ctx.queue;
      const key = JSON.stringify([applyMarkdown, clientGravatar, capabilities.emptyTopicName, flags, isSenderQueue]);
      let event = shared.get(key);
      if (!event) {
        event = { type: 'message', message: clientMessage(payload.message, ctx), flags };
        if (isSenderQueue) event.local_message_id = payload.local_id;
        shared.set(key, event);
      }
      return [event];
    };
  const deliveries: Delivery[] = [{ users: payload.user_ids, build: build(true) }];
  if (payload.stream && !payload.stream.invite_only) {
    deliveries.unshift({ publicStreamsRealm: realmId, build: build(false) });
  }
  return deliveries;
}

/** Zulip's delete_message: one bulk event, or one per message for clients without bulk_message_deletion. */
export function messageDeleted(payload: PayloadOf<typeof contracts.messageDeleted>): Delivery[] {
  return [
    {
      users: payload.user_ids,
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'delete_message')) return [];
        const base: DeleteMessageEvent = { type: 'delete_message', message_type: payload.message_type };
        if (payload.message_type === 'stream') {
          base.stream_id = payload.stream_id;
          base.topic = topicFor(ctx, payload.topic ?? '');
        }
        if (ctx.queue.capabilities.bulkMessageDeletion) return [{ ...base, message_ids: payload.message_ids }];
        return payload.message_ids.map((id) => ({ ...base, message_id: id }));
      },
    },
  ];
}

/**
 * Zulip's update_message (process_message_update_event): every user told gets the edit with their own flags; the
 * empty topic is shown by name to clients without `empty_topic_name`.
 */
export function messageUpdated(payload: PayloadOf<typeof contracts.messageUpdated>): Delivery[] {
  // `notify` is for the notification code (as Zulip's notification fields), never for clients.
  const { flags, orig_subject: origSubject, subject, notify: _notify, ...rest } = payload;
  return [
    {
      users: Object.keys(flags).map(Number),
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'update_message')) return [];
        const event: UpdateMessageEvent = {
          type: 'update_message',
          ...rest,
          ...(origSubject !== undefined && { orig_subject: topicFor(ctx, origSubject) }),
          ...(subject !== undefined && { subject: topicFor(ctx, subject) }),
          flags: flags[String(ctx.queue.userId)] ?? [],
        };
        return [event];
      },
    },
  ];
}

/** Zulip's `submessage` event: a widget's data or update, to those who see the message. */
export function submessageAdded(payload: PayloadOf<typeof contracts.submessageAdded>): Delivery[] {
  const { user_ids: users, ...fields } = payload;
  const event: SubmessageEvent = {
    type: 'submessage',
    msg_type: fields.msg_type,
    message_id: fields.message_id,
    submessage_id: fields.submessage_id,
    sender_id: fields.sender_id,
    content: fields.content,
  };
  return [{ users, build: (ctx) => (acceptsType(ctx.queue, 'submessage') ? [event] : []) }];
}

export function messageFlagsChanged(payload: PayloadOf<typeof contracts.messageFlagsChanged>): Delivery[] {
  return [
    {
      users: [payload.user_id],
      build: (ctx) =>
        acceptsType(ctx.queue, 'update_message_flags')
          ? [
              {
                type: 'update_message_flags',
                op: payload.op,
                operation: payload.op,
                flag: payload.flag,
                messages: payload.messages,
                all: false,
                ...(payload.message_details
                  ? { message_details: messageDetailsFor(ctx, payload.message_details) }
                  : {}),
              },
            ]
          : [],
    },
  ];
}

type ReactionChange = PayloadOf<typeof contracts.reactionAdded>;

/** Zulip's reaction event, with the deprecated `user` object it still sends (zulip-terminal 0.7.0 reads it). */
export function reactionChanged(payload: ReactionChange, op: 'add' | 'remove'): Delivery[] {
  const user = payload.user
    ? { user: { user_id: payload.user_id, email: payload.user.email, full_name: payload.user.full_name } }
    : {};
  const event: ReactionEvent = {
    type: 'reaction',
    op,
    user_id: payload.user_id,
    ...user,
    message_id: payload.message_id,
    emoji_name: payload.emoji_name,
    emoji_code: payload.emoji_code,
    reaction_type: reactionTypeOnWire(payload.reaction_type),
  };
  return [{ users: payload.user_ids, build: (ctx) => (acceptsType(ctx.queue, 'reaction') ? [event] : []) }];
}

type TypingChange = PayloadOf<typeof contracts.typingStarted>;

/** Channel typing reaches only clients with the stream_typing_notifications capability (Zulip's accepts_event). */
export function typingChanged(payload: TypingChange, op: 'start' | 'stop'): Delivery[] {
  return [
    {
      users: payload.user_ids,
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'typing')) return [];
        const common = { type: 'typing', op, message_type: payload.message_type, sender: payload.sender } as const;
        if (payload.message_type === 'stream') {
          if (!ctx.queue.capabilities.streamTypingNotifications) return [];
          const event: TypingEvent = {
            ...common,
            message_type: 'stream',
            stream_id: payload.stream_id,
            topic: topicFor(ctx, payload.topic ?? ''),
          };
          return [event];
        }
        const event: TypingEvent = { ...common, message_type: 'direct', recipients: payload.recipients ?? [] };
        return [event];
      },
    },
  ];
}

type EditTypingChange = PayloadOf<typeof contracts.typingEditMessageStarted>;

export function typingEditMessageChanged(payload: EditTypingChange, op: 'start' | 'stop'): Delivery[] {
  return [
    {
      users: payload.user_ids,
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'typing_edit_message')) return [];
        const recipient =
          payload.recipient.type === 'channel'
            ? { ...payload.recipient, topic: topicFor(ctx, payload.recipient.topic) }
            : payload.recipient;
        return [
          { type: 'typing_edit_message', op, sender_id: payload.sender_id, message_id: payload.message_id, recipient },
        ];
      },
    },
  ];
}

export function userTopicChanged(payload: PayloadOf<typeof contracts.userTopicChanged>): Delivery[] {
  return [
    {
      users: [payload.user_id],
      build: (ctx) =>
        acceptsType(ctx.queue, 'user_topic')
          ? [
              {
                type: 'user_topic',
                stream_id: payload.stream_id,
                topic_name: topicFor(ctx, payload.topic_name),
                last_updated: payload.last_updated,
                visibility_policy: payload.visibility_policy,
              },
            ]
          : [],
    },
  ];
}

/** message_details with each channel message's topic as this queue shows an empty topic. */
function messageDetailsFor(
  ctx: QueueContext,
  details: NonNullable<PayloadOf<typeof contracts.messageFlagsChanged>['message_details']>,
): Record<string, MessageFlagDetail> {
  const out: Record<string, MessageFlagDetail> = {};
  for (const [id, d] of Object.entries(details))
    out[id] = d.topic === undefined ? d : { ...d, topic: topicFor(ctx, d.topic) };
  return out;
}
