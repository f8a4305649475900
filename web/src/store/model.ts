import { messageMatchesNarrow } from '@confab/zulip';
import { conversationTerms, type Conversation } from '../lib/narrow';

/** What the client keeps from /register and the events that follow. */

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  /** Zulip's roles: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
  role?: number;
  /** An IANA time zone ('' when unknown). */
  timezone?: string;
  avatar_url?: string | null;
  avatar_version?: number;
  is_bot?: boolean;
  is_active?: boolean;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color?: string;
  description?: string;
  invite_only?: boolean;
  is_archived?: boolean;
  is_muted?: boolean;
  /** Per-channel notification choices; null follows the user's settings. */
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
}

/** A channel the user may see (/register's `streams`, GET /streams). */
export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_archived?: boolean;
}

export interface Submessage {
  id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email?: string;
  avatar_url?: string | null;
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | { id: number; full_name: string }[];
  flags?: string[];
  reactions?: Reaction[];
  last_edit_timestamp?: number;
  /** Widget data (polls, to-do lists), oldest first. */
  submessages?: Submessage[];
  /** A search's highlighted content and topic (the server's, with `<span class="highlight">`). */
  match_content?: string;
  match_subject?: string;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/** A Unicode emoji's glyph from its code ("1f44d", "1f1e9-1f1ea"); other kinds show their name. */
export function emojiGlyph(reaction: Pick<Reaction, 'emoji_code' | 'emoji_name' | 'reaction_type'>): string {
  if (reaction.reaction_type !== 'unicode_emoji') return `:${reaction.emoji_name}:`;
  try {
    return String.fromCodePoint(...reaction.emoji_code.split('-').map((hex) => parseInt(hex, 16)));
  } catch {
    return `:${reaction.emoji_name}:`;
  }
}

/** A conversation one writes to (a channel, maybe one topic, or a direct-message conversation). */
export type Narrow = Conversation;

/** Where a message's unread count is kept: one channel, or one direct-message conversation. */
export function conversationKey(message: Message, me: number): string {
  if (message.type === 'stream') return `s:${message.stream_id}`;
  const others = Array.isArray(message.display_recipient)
    ? message.display_recipient.map((r) => r.id).filter((id) => id !== me)
    : [];
  return `d:${(others.length > 0 ? others : [me]).sort((a, b) => a - b).join(',')}`;
}

export function narrowKey(narrow: Narrow, me: number): string {
  if (narrow.kind === 'stream') return `s:${narrow.streamId}`;
  const others = narrow.userIds.filter((id) => id !== me);
  return `d:${(others.length > 0 ? others : [me]).sort((a, b) => a - b).join(',')}`;
}

/** Whether a message is in a conversation (libs/zulip's narrow predicate, as for any narrow). */
export function inNarrow(message: Message, narrow: Narrow, me: number): boolean {
  return messageMatchesNarrow(conversationTerms(narrow), message, [], { self: me });
}

/** Where a channel message's unread count per topic is kept (beside its channel's, `s:<id>`). */
export const topicKey = (streamId: number, topic: string) => `t:${streamId}:${topic}`;

export interface UnreadMsgs {
  streams?: { stream_id: number; topic?: string; unread_message_ids: number[] }[];
  pms?: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  huddles?: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions?: number[];
}

/** Where one unread message is: its conversation key (`s:<id>` or `d:<ids>`), and its channel and topic. */
export interface UnreadEntry {
  key: string;
  streamId?: number;
  topic?: string;
  mentioned?: boolean;
}

/** Unread messages by id, from /register's unread_msgs. */
export function unreadFromRegister(unread: UnreadMsgs | undefined, me: number): Map<number, UnreadEntry> {
  const map = new Map<number, UnreadEntry>();
  for (const s of unread?.streams ?? [])
    for (const id of s.unread_message_ids)
      map.set(id, { key: `s:${s.stream_id}`, streamId: s.stream_id, topic: s.topic });
  for (const p of unread?.pms ?? [])
    for (const id of p.unread_message_ids) map.set(id, { key: `d:${p.other_user_id ?? p.sender_id}` });
  for (const h of unread?.huddles ?? []) {
    const ids = h.user_ids_string
      .split(',')
      .map(Number)
      .filter((id) => id !== me);
    for (const id of h.unread_message_ids) map.set(id, { key: `d:${ids.sort((a, b) => a - b).join(',')}` });
  }
  for (const id of unread?.mentions ?? []) {
    const entry = map.get(id);
    if (entry) entry.mentioned = true;
  }
  return map;
}

/** Unread counts by conversation key and by topic key (`t:<stream>:<topic>`). */
export function unreadCounts(unread: ReadonlyMap<number, UnreadEntry>): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const entry of unread.values()) {
    bump(entry.key);
    if (entry.streamId !== undefined && entry.topic !== undefined) bump(topicKey(entry.streamId, entry.topic));
  }
  return counts;
}

/** A draft as the server keeps it (GET /drafts, /register's `drafts`, `drafts` events). */
export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** The server's draft for a conversation, if any (the newest when several match). */
export function draftFor(drafts: readonly Draft[], narrow: Narrow): Draft | undefined {
  const same = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  return [...drafts]
    .sort((a, b) => b.timestamp - a.timestamp)
    .find((d) =>
      narrow.kind === 'stream'
        ? d.type === 'stream' && d.to[0] === narrow.streamId && (narrow.topic === undefined || d.topic === narrow.topic)
        : d.type === 'private' && same(d.to, narrow.userIds),
    );
}

/** Zulip's modern presence of a user: when they were last active and last idle (Unix seconds). */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** Zulip's presence rule: active or idle if seen within the server's offline threshold, otherwise offline. */
export function presenceStatus(
  presence: Presence | undefined,
  nowSeconds: number,
  offlineThresholdSeconds: number,
): 'active' | 'idle' | 'offline' {
  if (!presence) return 'offline';
  if (nowSeconds - presence.active_timestamp < offlineThresholdSeconds) return 'active';
  if (nowSeconds - presence.idle_timestamp < offlineThresholdSeconds) return 'idle';
  return 'offline';
}

/** A `presence` event's per-client statuses folded into the modern form. */
export function presenceFromEvent(
  previous: Presence | undefined,
  clients: Record<string, { status: string; timestamp: number }>,
): Presence {
  const next = { ...(previous ?? { active_timestamp: 0, idle_timestamp: 0 }) };
  for (const client of Object.values(clients)) {
    if (client.status === 'active') next.active_timestamp = Math.max(next.active_timestamp, client.timestamp);
    next.idle_timestamp = Math.max(next.idle_timestamp, client.timestamp);
  }
  return next;
}

/** A scheduled message as the server lists it (/register's `scheduled_messages`, `scheduled_messages` events). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** An emoji one can pick: a Unicode one (server_emoji_data_url) or one of the realm's custom ones. */
export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji';
  /** Image of a custom emoji. */
  url?: string;
}

interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated?: boolean;
}

/** Custom emoji from /register's realm_emoji (or a realm_emoji event), without deactivated ones. */
export function realmEmojiChoices(realmEmoji: Record<string, RealmEmoji> | undefined): EmojiChoice[] {
  return Object.values(realmEmoji ?? {})
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: e.id, type: 'realm_emoji', url: e.source_url }));
}

/** A user group's direct members and subgroups, as /register's `realm_user_groups` and `user_group` events give them. */
export interface GroupMembers {
  members: readonly number[];
  direct_subgroup_ids: readonly number[];
}
