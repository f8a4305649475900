/** Zulip's main keyboard shortcuts, as plain functions: which key does what, and where j/k and n go. */
import type { Conversation } from '../lib/narrow';
import type { UnreadEntry } from '../store/model';

export type Action =
  | 'compose'
  | 'dm'
  | 'reply'
  | 'next'
  | 'previous'
  | 'nextUnread'
  | 'search'
  | 'filterChannels'
  | 'searchPeople'
  | 'escape'
  | 'help';

/** The shortcuts, as the help lists them. */
export const SHORTCUTS: [string, string][] = [
  ['c', 'New message to a channel: the one being read, else one to choose'],
  ['x', 'New direct message: choose who to send it to'],
  ['r', 'Reply to the selected message'],
  ['j', 'Select the next message'],
  ['k', 'Select the previous message'],
  ['n', 'Go to the next unread topic'],
  ['/', 'Search'],
  ['q', 'Filter channels'],
  ['w', 'Search people'],
  ['Esc', 'Close, or leave the field being typed in'],
  ['?', 'Show these shortcuts'],
];

const KEYS: Record<string, Action> = {
  c: 'compose',
  x: 'dm',
  r: 'reply',
  j: 'next',
  k: 'previous',
  n: 'nextUnread',
  '/': 'search',
  q: 'filterChannels',
  w: 'searchPeople',
  '?': 'help',
  Escape: 'escape',
};

/** The action of a key press; only Esc acts while typing in a field, and no shortcut takes a modifier key. */
export function actionFor(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
  typing: boolean,
): Action | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
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
