/**
 * The reducers of the events about messages, one per event type: a new message, flags, reactions, widgets, deletions,
 * edits and moves, typing. Each changes the signals its event touches (state.ts), inside applyEvents' batch.
 */
import {
  messageMatchesNarrow,
  type DeleteMessageEvent,
  type MessageEvent,
  type ReactionEvent,
  type SubmessageEvent,
  type TypingEvent,
  type UpdateMessageEvent,
  type UpdateMessageFlagsEvent,
} from '@confab/zulip';
import { conversationOf, type Term } from '../../lib/narrow';
import { afterUpdateMessage } from '../message-updates';
import { conversationKey, type Message, type Reaction, type Submessage, type UnreadEntry } from '../model';
import { dmConversations, lastMessage, me, topics, topicsStale, typing, unread, view } from '../state';

/** Whether a message that arrives live belongs in the narrow being read. */
export function liveMatches(message: Message, flags: readonly string[], terms: readonly Term[], self: number): boolean {
  if (terms.length === 0) return true;
  // The views that follow live messages: a conversation and the Mentions view (the others are read again).
  const follows = conversationOf(terms) !== null || isMentionsView(terms);
  return follows && messageMatchesNarrow(terms, message, flags, { self });
}

/** The Mentions view (`is:mentioned` alone). */
const isMentionsView = (terms: readonly Term[]): boolean =>
  terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === 'mentioned' && !terms[0].negated;

/** The Starred view (`is:starred` alone). */
export const isStarredView = (terms: readonly Term[]): boolean =>
  terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === 'starred' && !terms[0].negated;

/** A DM conversation's unread key from its other people's ids (none: the conversation with oneself), as conversationKey. */
const dmKey = (others: readonly number[], self: number): string => {
  const ids = others.filter((id) => id !== self);
  return `d:${(ids.length > 0 ? ids : [self]).sort((a, b) => a - b).join(',')}`;
};

function setMessages(update: (list: Message[]) => Message[]): void {
  const current = view.value;
  const messages = update(current.messages);
  if (messages !== current.messages) view.value = { ...current, messages };
}

function removeUnread(ids: Iterable<number>): void {
  let next: Map<number, UnreadEntry> | null = null;
  for (const id of ids) {
    if (!unread.value.has(id)) continue;
    next ??= new Map(unread.value);
    next.delete(id);
  }
  if (next) unread.value = next;
}

export function onMessage(event: MessageEvent): void {
  const self = me.value;
  const { message, flags } = event;
  lastMessage.value = message;
  if (liveMatches(message, flags, view.value.terms, self))
    setMessages((list) => (list.some((m) => m.id === message.id) ? list : [...list, { ...message, flags }]));
  if (!flags.includes('read') && message.sender_id !== self) {
    const entry: UnreadEntry = { key: conversationKey(message, self) };
    if (message.type === 'stream') Object.assign(entry, { streamId: message.stream_id, topic: message.subject });
    if (flags.some((f) => f.endsWith('mentioned'))) entry.mentioned = true;
    unread.value = new Map(unread.value).set(message.id, entry);
  }
  if (message.type === 'private') {
    const others = conversationKey(message, self).slice(2);
    dmConversations.value = [
      others.split(',').map(Number),
      ...dmConversations.value.filter((ids) => ids.join(',') !== others),
    ];
  }
  if (message.type === 'stream' && message.stream_id !== undefined) {
    const streamId = message.stream_id;
    const list = topics.value.get(streamId);
    if (list && list[0] !== message.subject)
      topics.value = new Map(topics.value).set(streamId, [
        message.subject,
        ...list.filter((t) => t !== message.subject),
      ]);
  }
}

export function onUpdateMessageFlags(event: UpdateMessageFlagsEvent): void {
  const self = me.value;
  const ids = event.messages;
  if (event.flag === 'read' && event.op === 'add') {
    if (event.all) unread.value = new Map();
    else removeUnread(ids);
  } else if (event.flag === 'read' && event.op === 'remove') {
    // Marked unread again: where each one is comes with the event (Zulip's message_details).
    const next = new Map(unread.value);
    for (const [id, d] of Object.entries(event.message_details ?? {})) {
      const entry: UnreadEntry =
        d.type === 'stream'
          ? { key: `s:${d.stream_id}`, streamId: d.stream_id, topic: d.topic }
          : { key: dmKey(d.user_ids ?? [], self) };
      if (d.mentioned) entry.mentioned = true;
      next.set(Number(id), entry);
    }
    unread.value = next;
  }
  if (event.flag !== 'read') {
    const set = new Set(ids);
    const add = event.op === 'add';
    // In the Starred view, an unstarred message no longer belongs there: it leaves the list at once.
    const leaves = !add && event.flag === 'starred' && isStarredView(view.value.terms);
    setMessages((list) =>
      list
        .filter((m) => !(leaves && set.has(m.id)))
        .map((m) => {
          if (!set.has(m.id)) return m;
          const others = (m.flags ?? []).filter((f) => f !== event.flag);
          return { ...m, flags: add ? [...others, event.flag] : others };
        }),
    );
  }
}

export function onReaction(event: ReactionEvent): void {
  const same = (x: Reaction) =>
    x.user_id === event.user_id && x.emoji_code === event.emoji_code && x.reaction_type === event.reaction_type;
  const added: Reaction = {
    emoji_name: event.emoji_name,
    emoji_code: event.emoji_code,
    reaction_type: event.reaction_type,
    user_id: event.user_id,
  };
  setMessages((list) =>
    list.map((m) => {
      if (m.id !== event.message_id) return m;
      const rest = (m.reactions ?? []).filter((x) => !same(x));
      return { ...m, reactions: event.op === 'add' ? [...rest, added] : rest };
    }),
  );
}

export function onSubmessage(event: SubmessageEvent): void {
  const sub: Submessage = {
    id: event.submessage_id,
    sender_id: event.sender_id,
    msg_type: event.msg_type,
    content: event.content,
  };
  setMessages((list) =>
    list.map((m) =>
      m.id !== event.message_id || m.submessages?.some((s) => s.id === sub.id)
        ? m
        : { ...m, submessages: [...(m.submessages ?? []), sub] },
    ),
  );
}

export function onTyping(event: TypingEvent): void {
  const sender = event.sender.user_id;
  const key = event.message_type === 'stream' ? `s:${event.stream_id}` : `d:${sender}`;
  const next = new Map(typing.value);
  const set = new Set(next.get(key) ?? []);
  if (event.op === 'start') set.add(sender);
  else set.delete(sender);
  typing.value = next.set(key, set);
}

export function onDeleteMessage(event: DeleteMessageEvent): void {
  const ids = new Set(event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]));
  setMessages((list) => list.filter((m) => !ids.has(m.id)));
  removeUnread(ids);
}

/** An edit and/or a move of the listed messages: the messages read, unread ones and topic lists follow. */
export function onUpdateMessage(event: UpdateMessageEvent): void {
  const { terms, messages } = view.value;
  const after = afterUpdateMessage({ terms, messages, unread: unread.value, topics: topics.value }, event, me.value);
  setMessages(() => after.messages);
  if (after.unread) unread.value = after.unread;
  if (after.staleStream !== undefined) topicsStale.value = { streamId: after.staleStream, at: Date.now() };
  if (after.topics) topics.value = after.topics;
}
