import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { around, moved, rangeOf, settled, type Range, type Span } from './render-window';

type Ids = readonly { id: number }[];

/** What the window must show when it changes: a link's target, the first unread (on opening), the selection. */
export interface Wanted {
  target: number | null;
  firstUnread: number | null;
  selected: number | null;
}

/** The text of a message (or the message) that is at the top of the list's viewport, and how far below its top. */
function topMessage(list: HTMLElement, keep: (id: number) => boolean): { id: number; offset: number } | null {
  const top = list.getBoundingClientRect().top;
  for (const m of list.querySelectorAll<HTMLElement>('.message')) {
    const id = Number(m.dataset.id);
    if (m.getBoundingClientRect().bottom <= top || !keep(id)) continue;
    const text = m.querySelector('.content') ?? m;
    return { id, offset: text.getBoundingClientRect().top - top };
  }
  return null;
}

/**
 * The window of a narrow's loaded messages that the list renders (`render-window.ts`), and the list's scroll handler
 * that moves it. When the window's first message changes, the message at the top of the viewport stays where it was
 * on screen: the reader's place is kept when older messages come in above and when the window moves.
 */
export function useRenderWindow(list: RefObject<HTMLElement>, messages: Ids, wanted: Wanted) {
  const span = useRef<Span | null>(null);
  const seen = useRef<Wanted & { oldest?: number; newest?: number }>({
    target: null,
    firstUnread: null,
    selected: null,
  });
  const anchor = useRef<{ id: number; offset: number } | null>(null);
  const shownFrom = useRef<number | null>(null);
  const [, rerender] = useState(0);

  const indexOf = (id: number | null) => (id === null ? -1 : messages.findIndex((m) => m.id === id));
  const was = seen.current;
  let next: Span | null = messages.length === 0 ? null : span.current;
  let range = next ? rangeOf(messages, next) : null;
  if (next && range) next = settled(messages, next, was.oldest);
  else if (messages.length > 0) {
    // A narrow's first page: the first unread (the divider) or a link's target in sight, else the newest.
    const opening = indexOf(wanted.target) >= 0 ? wanted.target : wanted.firstUnread;
    next = around(messages, indexOf(opening) >= 0 ? indexOf(opening) : null);
  }
  const newest = messages[messages.length - 1]?.id;
  if (next) {
    range = rangeOf(messages, next);
    const outside = (id: number | null) => {
      const at = indexOf(id);
      return at >= 0 && range !== null && (at < range.start || at >= range.end) ? at : -1;
    };
    // A message that must be seen and is outside: the window goes to it (once, when it becomes wanted).
    for (const key of ['target', 'firstUnread', 'selected'] as const) {
      const at = wanted[key] !== was[key] ? outside(wanted[key]) : -1;
      if (at >= 0) next = around(messages, at);
    }
    // A new message at the end of the list: the list goes to it (the newest in sight, as before the window).
    if (was.newest !== undefined && newest !== was.newest && wanted.target === null && next.to !== null)
      next = around(messages, null);
    range = rangeOf(messages, next);
  }
  span.current = next;
  seen.current = { ...wanted, oldest: messages[0]?.id, newest };
  const shown: Range = range ?? { start: 0, end: 0 };
  const latest = useRef({ messages, shown });
  latest.current = { messages, shown };

  // The window's first message changes: remember which message is at the top of the viewport, and where (the list
  // still shows the previous window), to put it back there once the new window is in the page.
  const from = next?.from ?? null;
  if (from !== shownFrom.current && list.current && anchor.current === null) {
    const ids = new Set(messages.slice(shown.start, shown.end).map((m) => m.id));
    anchor.current = topMessage(list.current, (id) => ids.has(id));
  }
  useLayoutEffect(() => {
    const el = list.current;
    const place = anchor.current;
    anchor.current = null;
    shownFrom.current = from;
    if (!el || !place) return;
    const now = topMessage(el, (id) => id === place.id);
    if (now) el.scrollTop += now.offset - place.offset;
  });

  /** Moves the window when the reader nears one of its ends; true when its top is the oldest loaded message. */
  const onScroll = (el: HTMLElement): boolean => {
    const { messages: all, shown: now } = latest.current;
    const edge = Math.max(600, el.clientHeight * 1.5);
    let to: Span | null = null;
    if (el.scrollTop < edge && now.start > 0) to = moved(all, now, 'up');
    else if (el.scrollHeight - el.scrollTop - el.clientHeight < edge && now.end < all.length)
      to = moved(all, now, 'down');
    if (to) {
      span.current = to;
      rerender((n) => n + 1);
    }
    return now.start === 0;
  };
  return { shown, onScroll };
}
