/**
 * The client's state: signals filled from /register (register.ts) and kept current by events (reducers/), Zulip's
 * model. Components read the signals they show and re-render when those change; nothing else holds server state.
 */
import { computed, signal } from '@preact/signals';
import type { Term } from '../lib/narrow';
import {
  unreadCounts,
  type Draft,
  type EmojiChoice,
  type Message,
  type Presence,
  type ScheduledMessage,
  type Stream,
  type Subscription,
  type UnreadEntry,
  type User,
} from './model';
import { topicPolicy } from './personal';
import { isShownUnread, type Where } from './visibility';

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

/** The unread messages `keep` keeps (null for a direct message, else where it is), read once per topic. */
export function unreadWhere(keep: (where: Where | null) => boolean): Map<number, UnreadEntry> {
  const kept = new Map<number, UnreadEntry>();
  const known = new Map<string, boolean>();
  const dms = keep(null);
  for (const [id, entry] of unread.value) {
    if (entry.streamId === undefined) {
      if (dms) kept.set(id, entry);
      continue;
    }
    const at = `${entry.streamId}:${entry.topic ?? ''}`;
    let visible = known.get(at);
    if (visible === undefined) {
      visible = keep(whereOf(entry.streamId, entry.topic ?? ''));
      known.set(at, visible);
    }
    if (visible) kept.set(id, entry);
  }
  return kept;
}

/**
 * The unread messages the Inbox, the sidebar and the title count (Zulip's rule, is_topic_visible_in_home): direct
 * messages, and channel messages of subscribed channels except in a muted topic, or in a muted channel where the
 * topic is not unmuted or followed.
 */
export const shownUnread = computed(() => unreadWhere(isShownUnread));
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

/** A channel whose topic list should be fetched again (after a partial move out of one of its topics). */
export const topicsStale = signal<{ streamId: number; at: number } | null>(null);
