/**
 * Which of a narrow's loaded messages are in the page (issue 45's budget: 5,000 loaded messages scroll without long
 * tasks). As Zulip's message list does (`message_list_view.ts`: a render window of 250 messages, re-rendered when the
 * reader comes near one of its ends), the list holds a window of the loaded messages, not all of them: a few hundred
 * elements to lay out, paint and diff, whatever the number loaded. The window moves by a step when the reader
 * scrolls near one of its ends (the list keeps the reader's place, `messages.tsx`), follows the newest message while
 * it holds it, takes in older messages as they are loaded at its top, and is centred on a message that must be seen
 * (a link's target, the first unread, the keyboard's selection) when that one is outside it.
 *
 * The window is kept as message ids, so that messages loaded or deleted elsewhere in the list do not move it.
 */

/** At most this many messages are in the page. */
export const WINDOW = 250;
/**
 * The window moves by this many messages when the reader comes near one of its ends. Each move mounts this many rows
 * in one task (their HTML parsed, their components made): 60 at once made tasks of up to 63 ms (bench/RESULTS.md,
 * 2026-12-04), over the 50 ms budget; 20 is a third of that work per move, and 20 rows of the shortest kind (one line,
 * ~30 px) are still more than a fast scroll covers between two scroll events.
 */
export const STEP = 20;

/** The window's first message and its last one, or null for "up to the newest" (it follows new messages). */
export interface Span {
  from: number;
  to: number | null;
}

/** The window as indices into the loaded messages: [start, end). */
export interface Range {
  start: number;
  end: number;
}

type Ids = readonly { id: number }[];

const spanOf = (ids: Ids, start: number, end: number): Span => ({
  from: ids[start]?.id ?? 0,
  to: end >= ids.length ? null : ids[end - 1].id,
});

/** A window around the message at `center` (a quarter of the window before it), or ending at the newest. */
export function around(ids: Ids, center: number | null): Span {
  if (ids.length === 0) return { from: 0, to: null };
  if (center === null) return spanOf(ids, Math.max(0, ids.length - WINDOW), ids.length);
  const start = Math.max(0, Math.min(center - Math.floor(WINDOW / 4), ids.length - WINDOW));
  return spanOf(ids, start, Math.min(ids.length, start + WINDOW));
}

/** Where the window is in the loaded messages now (from the first one at or after its first message, should that
 * have been deleted); null if no loaded message is that new. */
export function rangeOf(ids: Ids, span: Span): Range | null {
  const start = ids.findIndex((m) => m.id >= span.from);
  if (start === -1) return null;
  if (span.to === null) return { start, end: ids.length };
  let end = start;
  while (end < ids.length && ids[end].id <= span.to) end += 1;
  return { start, end: Math.max(end, start + 1) };
}

/** The window moved a step towards the older messages ('up') or the newer ones ('down'), at most WINDOW long. */
export function moved(ids: Ids, range: Range, towards: 'up' | 'down'): Span {
  if (towards === 'up') {
    const start = Math.max(0, range.start - STEP);
    return spanOf(ids, start, Math.min(range.end, start + WINDOW));
  }
  const end = Math.min(ids.length, range.end + STEP);
  return spanOf(ids, Math.max(range.start, end - WINDOW), end);
}

/**
 * The window after older messages were loaded at the top of the list: if it began at the oldest loaded message (the
 * reader was at the top, which is what loaded them), it begins at the new oldest one, its far end given up beyond
 * WINDOW; messages added at the end while it follows the newest drop its oldest beyond WINDOW.
 */
export function settled(ids: Ids, span: Span, oldestBefore: number | undefined): Span {
  const range = rangeOf(ids, span);
  if (!range) return span;
  let { start, end } = range;
  if (oldestBefore !== undefined && span.from === oldestBefore && start > 0) {
    start = 0;
    end = Math.min(end, WINDOW);
  } else if (span.to === null && end - start > WINDOW) start = end - WINDOW;
  return spanOf(ids, start, end);
}

/** Whether the window holds this message. */
export const holds = (ids: Ids, range: Range, id: number): boolean =>
  ids.slice(range.start, range.end).some((m) => m.id === id);
