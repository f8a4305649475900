/**
 * The "New messages" divider, as Zulip draws it: above the first message that was unread when the conversation was
 * opened. It is decided once, on opening, and stays where it is while the messages are marked read as they are
 * read; it goes when the reader leaves the view.
 */

/** The first message (in the list's order) that is unread, or null if none is. */
export function firstUnread(messages: readonly { id: number }[], unread: { has(id: number): boolean }): number | null {
  return messages.find((m) => unread.has(m.id))?.id ?? null;
}

/** Where the divider of one view is: fixed the first time the view's messages are loaded, for as long as it is open. */
export interface Marker {
  view: string;
  id: number | null;
}

/**
 * The divider for a view: the one already decided for this view, or, once its first page is loaded, the first unread
 * message then. Until the page is loaded there is none (the list still holds nothing, or the previous view's).
 */
export function markerFor(
  was: Marker | null,
  view: string,
  loaded: boolean,
  messages: readonly { id: number }[],
  unread: { has(id: number): boolean },
): Marker | null {
  if (was?.view === view) return was;
  if (!loaded) return null;
  return { view, id: firstUnread(messages, unread) };
}
