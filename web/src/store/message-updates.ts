/** What an `update_message` event (an edit and/or a move) changes (pure: the store assigns what this returns). */
import type { UpdateMessageEvent } from '@confab/zulip';
import { conversationOf, type Term } from '../lib/narrow';
import { inNarrow, type Message, type UnreadEntry } from './model';

/** The part of the store an edit or a move touches. */
export interface Reading {
  /** The narrow being read, and its messages. */
  terms: readonly Term[];
  messages: Message[];
  unread: Map<number, UnreadEntry>;
  topics: Map<number, string[]>;
}

/** The messages read, always; unread and topics where they changed; a channel whose topics should be fetched again. */
export interface AfterUpdate {
  messages: Message[];
  unread?: Map<number, UnreadEntry>;
  topics?: Map<number, string[]>;
  staleStream?: number;
}

export function afterUpdateMessage(
  { terms, messages, unread, topics }: Reading,
  event: UpdateMessageEvent,
  self: number,
): AfterUpdate {
  const ids = new Set(event.message_ids ?? [event.message_id]);
  const conversation = conversationOf(terms);
  const newTopic = event.subject;
  const newStream = event.new_stream_id;
  const after: AfterUpdate = {
    messages: messages
      .map((m) => {
        if (!ids.has(m.id)) return m;
        // A rendering-only update (link previews fetched after the send) is no edit: the message is not marked edited.
        const next: Message =
          event.rendering_only === true ? { ...m } : { ...m, last_edit_timestamp: event.edit_timestamp };
        if (m.id === event.message_id && typeof event.rendered_content === 'string')
          next.content = event.rendered_content;
        if (newTopic !== undefined) next.subject = newTopic;
        if (newStream !== undefined) next.stream_id = newStream;
        return next;
      })
      .filter((m) => !conversation || !ids.has(m.id) || inNarrow(m, conversation, self)),
  };
  if (newTopic === undefined && newStream === undefined) return after;
  // A move: unread messages go along, and the topics listed for the old and new places follow.
  const next = new Map(unread);
  let changed = false;
  for (const id of ids) {
    const entry = next.get(id);
    if (!entry || entry.streamId === undefined) continue;
    const streamId = newStream ?? entry.streamId;
    next.set(id, { ...entry, key: `s:${streamId}`, streamId, topic: newTopic ?? entry.topic });
    changed = true;
  }
  if (changed) after.unread = next;
  const oldStream = event.stream_id;
  const oldTopic = event.orig_subject;
  if (oldStream === undefined) return after;
  const map = new Map(topics);
  const target = newStream ?? oldStream;
  if (newTopic !== undefined || newStream !== undefined) {
    const list = map.get(target);
    const topic = newTopic ?? oldTopic;
    if (list && topic !== undefined) map.set(target, [topic, ...list.filter((t) => t !== topic)]);
  }
  // The old topic is gone from the list when the whole topic moved (Zulip's change_all) and is re-fetched otherwise.
  if (oldTopic !== undefined && event.propagate_mode === 'change_all') {
    const list = map.get(oldStream);
    if (list)
      map.set(
        oldStream,
        list.filter((t) => t !== oldTopic || (target === oldStream && newTopic === undefined)),
      );
  } else if (oldTopic !== undefined) after.staleStream = oldStream;
  after.topics = map;
  return after;
}
