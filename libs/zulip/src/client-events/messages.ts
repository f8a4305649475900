/** The events about messages: new ones, edits and moves, deletions, flags, reactions, widgets, typing. */
import type { ClientMessage, TopicLink } from './records.js';

export interface MessageEvent {
  type: 'message';
  message: ClientMessage;
  flags: string[];
  /** Only to the queue that sent the message (its local echo's id). */
  local_message_id?: string | null;
}

/** One bulk event (clients with bulk_message_deletion), or one per message. */
export interface DeleteMessageEvent {
  type: 'delete_message';
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  message_ids?: number[];
  message_id?: number;
}

/** An edit and/or a move; the content fields only when the content changed, the topic ones when it moved. */
export interface UpdateMessageEvent {
  type: 'update_message';
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  rendering_only: boolean;
  flags: string[];
  stream_name?: string;
  stream_id?: number;
  new_stream_id?: number;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
  orig_subject?: string;
  subject?: string;
  topic_links?: TopicLink[];
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
}

/** Where a message marked unread again is (Zulip's message_details). */
export interface MessageFlagDetail {
  type: 'stream' | 'private';
  mentioned?: boolean;
  user_ids?: number[];
  stream_id?: number;
  topic?: string;
}

export interface UpdateMessageFlagsEvent {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** Deprecated: the same as op. */
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  /** Flag `read` removed: where each message is. */
  message_details?: Record<string, MessageFlagDetail>;
}

export interface ReactionEvent {
  type: 'reaction';
  op: 'add' | 'remove';
  user_id: number;
  /** Deprecated. */
  user?: { user_id: number; email: string; full_name: string };
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface SubmessageEvent {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
}

interface TypingPerson {
  user_id: number;
  email: string;
}

export type TypingEvent = {
  type: 'typing';
  op: 'start' | 'stop';
  sender: TypingPerson;
} & (
  { message_type: 'stream'; stream_id?: number; topic: string } | { message_type: 'direct'; recipients: TypingPerson[] }
);

export interface TypingEditMessageEvent {
  type: 'typing_edit_message';
  op: 'start' | 'stop';
  sender_id: number;
  message_id: number;
  recipient: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
}

export type MessageEvents =
  | MessageEvent
  | DeleteMessageEvent
  | UpdateMessageEvent
  | UpdateMessageFlagsEvent
  | ReactionEvent
  | SubmessageEvent
  | TypingEvent
  | TypingEditMessageEvent;
