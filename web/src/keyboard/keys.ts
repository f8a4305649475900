/** Zulip's main keyboard shortcuts, as plain functions: which key does what, and where j/k and n go. */
import type { Conversation } from '../lib/narrow';
import type { UnreadEntry } from '../store/model';

export type Action =
  | 'compose'
  | 'dm'
  | 'reply'
  | 'replyToSender'
  | 'next'
  | 'previous'
  | 'nextUnread'
  | 'nextUnreadFollowed'
  | 'nextUnreadDm'
  | 'conversation'
  | 'inbox'
  | 'recent'
  | 'feed'
  | 'starred'
  | 'drafts'
  | 'viewImage'
  | 'search'
  | 'filterChannels'
  | 'searchPeople'
  | 'escape'
  | 'help';

/** The shortcuts, as the help lists them, in groups (Zulip's help/keyboard-shortcuts.md). */
export const SHORTCUT_GROUPS: [string, [string, string][]][] = [
  [
    'The basics',
    [
      ['c', 'New message to a channel: the one being read, else one to choose'],
      ['x', 'New direct message: choose who to send it to'],
      ['r', 'Reply to the selected message'],
      ['Shift+R', 'Reply directly to the sender of the selected message'],
      ['Enter / Ctrl+Enter', 'Send, as your setting “Sending a message” says; the other one starts a new line'],
      ['?', 'Show these shortcuts'],
      ['Esc', 'Close, or leave the field being typed in'],
    ],
  ],
  [
    'Navigation',
    [
      ['j', 'Select the next message'],
      ['k', 'Select the previous message'],
      ['n', 'Go to the next unread topic'],
      ['Shift+N', 'Go to the next unread followed topic'],
      ['p', 'Go to the next unread direct message'],
      ['s', 'Go to the selected message’s topic or direct message conversation; from a topic, to its channel'],
      ['Shift+I', 'Go to the Inbox'],
      ['t', 'Go to Recent conversations'],
      ['a', 'Go to the Combined feed'],
      ['*', 'Go to Starred messages'],
      ['d', 'Go to Drafts (again: back)'],
    ],
  ],
  [
    'Search',
    [
      ['/ or Ctrl+K', 'Search messages'],
      ['q', 'Filter channels'],
      ['w', 'Search people'],
    ],
  ],
  ['Message actions', [['v', 'View the selected message’s image']]],
];

/** Every shortcut, one list. */
export const SHORTCUTS: [string, string][] = SHORTCUT_GROUPS.flatMap(([, list]) => list);

const KEYS: Record<string, Action> = {
  c: 'compose',
  x: 'dm',
  r: 'reply',
  R: 'replyToSender',
  j: 'next',
  k: 'previous',
  n: 'nextUnread',
  N: 'nextUnreadFollowed',
  p: 'nextUnreadDm',
  s: 'conversation',
  I: 'inbox',
  t: 'recent',
  a: 'feed',
  '*': 'starred',
  d: 'drafts',
  v: 'viewImage',
  '/': 'search',
  q: 'filterChannels',
  w: 'searchPeople',
  '?': 'help',
  Escape: 'escape',
};

/**
 * The action of a key press; only Esc acts while typing in a field. No shortcut takes Ctrl, ⌘ or Alt but Ctrl+K
 * (⌘K), search, as Zulip's; Shift only makes the capital letter (Shift+N is "N").
 */
export function actionFor(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
  typing: boolean,
): Action | null {
  if (event.ctrlKey || event.metaKey || event.altKey) {
    const ctrlK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
    return ctrlK && !typing ? 'search' : null;
  }
  const action = KEYS[event.key] ?? null;
  if (typing && action !== 'escape') return null;
  return action;
}

/** The message j (+1) or k (-1) selects: from none, the newest; it stays at either end. */
export function step(ids: readonly number[], selected: number | null, by: 1 | -1): number | null {
  if (ids.length === 0) return null;
  const at = selected === null ? -1 : ids.indexOf(selected);
  if (at === -1) return ids[ids.length - 1];
  return ids[Math.min(ids.length - 1, Math.max(0, at + by))];
}

/**
 * The unread conversation n goes to: the first topic after the current one (channels in the order given, topics in
 * name order), then direct messages; the entries skip says are muted are passed over.
 */
export function nextUnread(
  unread: ReadonlyMap<number, UnreadEntry>,
  channelOrder: readonly number[],
  current: Conversation | null,
  skip: (entry: UnreadEntry) => boolean,
): Conversation | null {
  const topics = new Map<string, Conversation>();
  const dms = new Map<string, Conversation>();
  for (const entry of unread.values()) {
    if (entry.streamId === undefined) {
      dms.set(entry.key, { kind: 'dm', userIds: entry.key.slice(2).split(',').map(Number) });
    } else if (!skip(entry)) {
      topics.set(`${entry.streamId}\n${entry.topic ?? ''}`, {
        kind: 'stream',
        streamId: entry.streamId,
        topic: entry.topic ?? '',
      });
    }
  }
  const rank = (c: Conversation) => (c.kind === 'stream' ? channelOrder.indexOf(c.streamId) : Infinity);
  const ordered = [
    ...[...topics.values()].sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.kind === 'stream' && b.kind === 'stream' ? (a.topic ?? '').localeCompare(b.topic ?? '') : 0),
    ),
    ...dms.values(),
  ];
  const same = (a: Conversation, b: Conversation | null) => JSON.stringify(a) === JSON.stringify(b);
  const here = ordered.findIndex((c) => same(c, current));
  return [...ordered.slice(here + 1), ...ordered.slice(0, Math.max(here, 0))][0] ?? null;
}

/**
 * What Enter does in the message field, as Zulip's `should_enter_send`: with `enter_sends`, Enter alone sends, Shift+Enter
 * is the field's own new line and Ctrl (⌘, Alt)+Enter puts one in; without it, Ctrl (⌘, Alt)+Enter sends and Enter or
 * Shift+Enter is a new line. Enter while an input method composes a character is the input method's.
 */
export function enterAction(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'>,
  enterSends: boolean,
): 'send' | 'newline' | null {
  if (event.key !== 'Enter' || event.isComposing) return null;
  const other = event.ctrlKey || event.metaKey || event.altKey;
  if (enterSends) {
    if (other) return 'newline';
    return event.shiftKey ? null : 'send';
  }
  return other ? 'send' : null;
}

/** The unread messages of topics one follows (Shift+N), by `policyOf` (Zulip's visibility policy, 3 followed). */
export function followedUnread(
  unread: ReadonlyMap<number, UnreadEntry>,
  policyOf: (streamId: number, topic: string) => number,
): Map<number, UnreadEntry> {
  return new Map(
    [...unread].filter(([, e]) => e.streamId !== undefined && policyOf(e.streamId, e.topic ?? '') === FOLLOWED),
  );
}

/** The unread direct messages (p). */
export function dmUnread(unread: ReadonlyMap<number, UnreadEntry>): Map<number, UnreadEntry> {
  return new Map([...unread].filter(([, e]) => e.streamId === undefined));
}

const FOLLOWED = 3;
