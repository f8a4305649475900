/**
 * The client's one store: signals filled from /register and kept current by events (Zulip's model: the state a
 * client registers for, then every change as an event). Components read the signals they show and re-render when
 * those change; nothing else holds server state.
 */
import { isAdministratorRole, ROLE_MEMBER } from '@confab/zulip';
import { batch, computed, signal } from '@preact/signals';
import { realmEmojiChoices, unicodeEmojiChoices, type EmojiChoice } from '../emoji/emoji';
import type { RegisterState, ServerEvent } from '../lib/events';
import { conversationOf, type Term } from '../lib/narrow';
import {
  conversationKey,
  inNarrow,
  presenceFromEvent,
  unreadCounts,
  unreadFromRegister,
  type Draft,
  type Message,
  type Presence,
  type Reaction,
  type ScheduledMessage,
  type Submessage,
  type Stream,
  type Subscription,
  type UnreadEntry,
  type User,
} from './model';
import { applyAdminEvent, applyAdminRegister } from '../admin/store';
import { applyIntegrationsEvent, applyIntegrationsRegister } from '../integrations/store';
import { byName, channelsAfter, subscriptionsAfter } from './channels';
import { afterUpdateMessage } from './message-updates';
import { applyPersonalEvent, applyPersonalRegister, topicPolicy } from './personal';
import { isShownUnread, type Where } from '../notifications/rules';

export const me = signal(0);
/** Owner or administrator (Zulip's role 100 or 200). */
export const isAdmin = signal(false);
export const users = signal(new Map<number, User>());
export const subscriptions = signal<Subscription[]>([]);
/** Every channel the user may see, subscribed or not. */
export const streams = signal<Stream[]>([]);
export const unread = signal(new Map<number, UnreadEntry>());
export const counts = computed(() => unreadCounts(unread.value));

/** Where a channel's topic stands for the user: their subscription (if subscribed) and the topic's policy. */
export const whereOf = (streamId: number, topic: string): Where => ({
  subscription: subscriptions.value.find((s) => s.stream_id === streamId),
  policy: topicPolicy(streamId, topic),
});

/**
 * The unread messages the Inbox, the sidebar and the title count (Zulip's rule, is_topic_visible_in_home): direct
 * messages, and channel messages of subscribed channels except in a muted topic, or in a muted channel where the
 * topic is not unmuted or followed.
 */
export const shownUnread = computed(() => {
  const shown = new Map<number, UnreadEntry>();
  const known = new Map<string, boolean>();
  for (const [id, entry] of unread.value) {
    if (entry.streamId === undefined) {
      shown.set(id, entry);
      continue;
    }
    const at = `${entry.streamId}:${entry.topic ?? ''}`;
    let visible = known.get(at);
    if (visible === undefined) {
      visible = isShownUnread(whereOf(entry.streamId, entry.topic ?? ''));
      known.set(at, visible);
    }
    if (visible) shown.set(id, entry);
  }
  return shown;
});
/** Their counts by conversation and topic, as `counts`. */
export const shownCounts = computed(() => unreadCounts(shownUnread.value));
export const drafts = signal<Draft[]>([]);
export const scheduled = signal<ScheduledMessage[]>([]);
export const presence = signal(new Map<number, Presence>());
export const presenceTimes = signal({ ping: 60, offline: 140 });
export const realmEmoji = signal<EmojiChoice[]>([]);
export const unicodeEmoji = signal<EmojiChoice[]>([]);
export const emoji = computed(() => [...realmEmoji.value, ...unicodeEmoji.value]);
/** Topics of the channels opened so far, most recent first (GET /users/me/{stream_id}/topics, then live). */
export const topics = signal(new Map<number, string[]>());
export const typing = signal(new Map<string, Set<number>>());
export const status = signal<'live' | 'reconnecting'>('live');
export const loaded = signal(false);
/** Direct-message conversations, most recent first: the other people's ids (/register's recent_private_conversations, then live). */
export const dmConversations = signal<number[][]>([]);
/** The newest message that arrived live (views that list conversations follow it). */
export const lastMessage = signal<Message | null>(null);

/** The messages of the narrow being read, and that narrow. */
export const view = signal<{ terms: Term[]; messages: Message[]; foundOldest: boolean; loading: boolean }>({
  terms: [],
  messages: [],
  foundOldest: false,
  loading: false,
});

export const channelName = (id: number): string | undefined =>
  subscriptions.value.find((s) => s.stream_id === id)?.name ?? streams.value.find((s) => s.stream_id === id)?.name;
export const channelId = (name: string): number | undefined => {
  const lower = name.toLowerCase();
  return (
    subscriptions.value.find((s) => s.name.toLowerCase() === lower)?.stream_id ??
    streams.value.find((s) => s.name.toLowerCase() === lower)?.stream_id
  );
};
export const userName = (id: number): string | undefined => users.value.get(id)?.full_name;
export const names = { channelName, userName };

export function applyRegister(state: RegisterState): void {
  const self = state.user_id as number;
  batch(() => {
    me.value = self;
    // Zulip's /register says is_admin (owners too); it has no top-level role.
    isAdmin.value = state.is_admin === true || isAdministratorRole((state.role as number | undefined) ?? ROLE_MEMBER);
    users.value = new Map(((state.realm_users as User[] | undefined) ?? []).map((u) => [u.user_id, u]));
    subscriptions.value = [...((state.subscriptions as Subscription[] | undefined) ?? [])].sort(byName);
    streams.value = [...((state.streams as Stream[] | undefined) ?? [])].sort(byName);
    realmEmoji.value = realmEmojiChoices(state.realm_emoji as never);
    drafts.value = (state.drafts as Draft[] | undefined) ?? [];
    scheduled.value = (state.scheduled_messages as ScheduledMessage[] | undefined) ?? [];
    presence.value = new Map(
      Object.entries((state.presences as Record<string, Presence> | undefined) ?? {}).map(([id, p]) => [Number(id), p]),
    );
    presenceTimes.value = {
      ping: (state.server_presence_ping_interval_seconds as number | undefined) ?? 60,
      offline: (state.server_presence_offline_threshold_seconds as number | undefined) ?? 140,
    };
    unread.value = unreadFromRegister(state.unread_msgs as never, self);
    dmConversations.value = (
      (state.recent_private_conversations as { user_ids: number[]; max_message_id: number }[] | undefined) ?? []
    )
      .sort((a, b) => b.max_message_id - a.max_message_id)
      .map((c) => [...c.user_ids].sort((a, b) => a - b));
    applyPersonalRegister(state);
    applyAdminRegister(state);
    applyIntegrationsRegister(state);
    loaded.value = true;
  });
  void unicodeEmojiChoices(state.server_emoji_data_url as string | undefined)
    .then((list) => (unicodeEmoji.value = list))
    .catch(() => undefined);
}

/** Whether a message that arrives live belongs in the narrow being read. */
export function liveMatches(message: Message, flags: readonly string[], terms: readonly Term[], self: number): boolean {
  if (terms.length === 0) return true;
  const conversation = conversationOf(terms);
  if (conversation) return inNarrow(message, conversation, self);
  if (terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === 'mentioned' && !terms[0].negated)
    return flags.some((f) => f.endsWith('mentioned'));
  return false;
}

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

export function applyEvents(events: ServerEvent[]): void {
  batch(() => {
    for (const event of events) applyEvent(event);
  });
}

function applyEvent(event: ServerEvent): void {
  const self = me.value;
  switch (event.type) {
    case 'message': {
      const message = event.message as Message;
      const flags = (event.flags as string[] | undefined) ?? [];
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
      if (message.type === 'stream') {
        const list = topics.value.get(message.stream_id!);
        if (list && list[0] !== message.subject)
          topics.value = new Map(topics.value).set(message.stream_id!, [
            message.subject,
            ...list.filter((t) => t !== message.subject),
          ]);
      }
      break;
    }
    case 'update_message_flags': {
      const ids = (event.messages as number[] | undefined) ?? [];
      if (event.flag === 'read' && event.op === 'add') {
        if (event.all) unread.value = new Map();
        else removeUnread(ids);
      } else if (event.flag === 'read' && event.op === 'remove') {
        // Marked unread again: where each one is comes with the event (Zulip's message_details).
        const details = (event.message_details as Record<string, Record<string, unknown>> | undefined) ?? {};
        const next = new Map(unread.value);
        for (const [id, d] of Object.entries(details)) {
          const entry: UnreadEntry =
            d.type === 'stream'
              ? { key: `s:${d.stream_id as number}`, streamId: d.stream_id as number, topic: d.topic as string }
              : { key: dmKey((d.user_ids as number[] | undefined) ?? [], self) };
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
              return { ...m, flags: add ? [...others, event.flag as string] : others };
            }),
        );
      }
      break;
    }
    case 'reaction': {
      const id = event.message_id as number;
      const r = event as unknown as Reaction & { op: string };
      const same = (x: Reaction) =>
        x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type;
      setMessages((list) =>
        list.map((m) => {
          if (m.id !== id) return m;
          const rest = (m.reactions ?? []).filter((x) => !same(x));
          const added = {
            emoji_name: r.emoji_name,
            emoji_code: r.emoji_code,
            reaction_type: r.reaction_type,
            user_id: r.user_id,
          };
          return { ...m, reactions: r.op === 'add' ? [...rest, added] : rest };
        }),
      );
      break;
    }
    case 'submessage': {
      const e = event as unknown as { submessage_id: number; sender_id: number; msg_type: string; content: string };
      const sub: Submessage = { id: e.submessage_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
      setMessages((list) =>
        list.map((m) =>
          m.id !== event.message_id || m.submessages?.some((s) => s.id === sub.id)
            ? m
            : { ...m, submessages: [...(m.submessages ?? []), sub] },
        ),
      );
      break;
    }
    case 'typing': {
      const sender = (event.sender as { user_id: number }).user_id;
      const key = event.message_type === 'stream' ? `s:${event.stream_id as number}` : `d:${sender}`;
      const next = new Map(typing.value);
      const set = new Set(next.get(key) ?? []);
      if (event.op === 'start') set.add(sender);
      else set.delete(sender);
      typing.value = next.set(key, set);
      break;
    }
    case 'presence': {
      const userId = event.user_id as number;
      const clients = (event.presence as Record<string, { status: string; timestamp: number }> | undefined) ?? {};
      presence.value = new Map(presence.value).set(userId, presenceFromEvent(presence.value.get(userId), clients));
      break;
    }
    case 'scheduled_messages': {
      if (event.op === 'add')
        scheduled.value = [...scheduled.value, ...(event.scheduled_messages as ScheduledMessage[])];
      else if (event.op === 'update') {
        const updated = event.scheduled_message as ScheduledMessage;
        scheduled.value = scheduled.value.map((m) =>
          m.scheduled_message_id === updated.scheduled_message_id ? updated : m,
        );
      } else if (event.op === 'remove')
        scheduled.value = scheduled.value.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
      break;
    }
    case 'drafts': {
      if (event.op === 'add') drafts.value = [...drafts.value, ...(event.drafts as Draft[])];
      else if (event.op === 'update') {
        const draft = event.draft as Draft;
        drafts.value = drafts.value.map((d) => (d.id === draft.id ? draft : d));
      } else if (event.op === 'remove') drafts.value = drafts.value.filter((d) => d.id !== event.draft_id);
      break;
    }
    case 'update_message': {
      applyUpdateMessage(event);
      break;
    }
    case 'delete_message': {
      const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
      setMessages((list) => list.filter((m) => !ids.has(m.id)));
      removeUnread(ids);
      break;
    }
    case 'realm_user': {
      applyAdminEvent(event);
      if (event.op !== 'update' && event.op !== 'add') break;
      const person = event.person as Partial<User> & { user_id: number };
      const before = users.value.get(person.user_id);
      if (!before && event.op === 'update') break;
      users.value = new Map(users.value).set(person.user_id, { ...(before as User), ...person });
      break;
    }
    case 'realm_emoji':
      realmEmoji.value = realmEmojiChoices(event.realm_emoji as never);
      break;
    case 'subscription':
      subscriptions.value = subscriptionsAfter(subscriptions.value, event);
      break;
    case 'stream': {
      // Inside applyEvents' batch: both lists change in one render.
      const next = channelsAfter({ streams: streams.value, subscriptions: subscriptions.value }, event);
      streams.value = next.streams;
      subscriptions.value = next.subscriptions;
      break;
    }
    case 'realm':
    case 'default_streams':
    case 'realm_linkifiers':
    case 'realm_export':
    case 'invites_changed':
      applyAdminEvent(event);
      break;
    case 'realm_bot':
    case 'user_group':
      applyIntegrationsEvent(event);
      break;
    default:
      applyPersonalEvent(event);
  }
}

/** An edit and/or a move of the listed messages: the messages read, unread ones and topic lists follow. */
function applyUpdateMessage(event: ServerEvent): void {
  const { terms, messages } = view.value;
  const after = afterUpdateMessage({ terms, messages, unread: unread.value, topics: topics.value }, event, me.value);
  setMessages(() => after.messages);
  if (after.unread) unread.value = after.unread;
  if (after.staleStream !== undefined) topicsStale.value = { streamId: after.staleStream, at: Date.now() };
  if (after.topics) topics.value = after.topics;
}

/** A channel whose topic list should be fetched again (after a partial move out of one of its topics). */
export const topicsStale = signal<{ streamId: number; at: number } | null>(null);
