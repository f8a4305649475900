/**
 * Zulip's "Mark as unread from here" (unread_ops.mark_as_unread_from_here): a message and every later one of the view
 * become unread. The counts change at once (a local echo of the server's event, which later comes and changes
 * nothing more), and the view stops marking what it shows as read until the reader leaves it (Zulip's
 * prevent_reading): otherwise the messages, being on screen, would be marked read again at once.
 */
import { signal } from '@preact/signals';
import * as client from '../lib/client';
import { anchorOf, wireNarrow, type Term } from '../lib/narrow';
import { conversationKey, type Message, type UnreadEntry } from '../store/model';
import { me, unread, view } from '../store/store';
import { forgetRead } from './mark-read';
import { withRetries } from './retry';

/** The view (its terms, as JSON) where reading is paused; null: none. Leaving that view ends the pause. */
export const readingPaused = signal<string | null>(null);
/** What the last "Mark as unread" could not do, shown until the next one. */
export const markUnreadError = signal<{ messageId: number; text: string } | null>(null);

/** Where an unread message is counted, from the message itself (as the server's message_details say it). */
export function unreadEntryOf(m: Message, self: number): UnreadEntry {
  const entry: UnreadEntry = { key: conversationKey(m, self) };
  if (m.type === 'stream') Object.assign(entry, { streamId: m.stream_id, topic: m.subject });
  if ((m.flags ?? []).some((f) => f.endsWith('mentioned'))) entry.mentioned = true;
  return entry;
}

/** The messages of `list` from `fromId` on that are read now (those to mark unread), in order. */
export function readFromHere(
  list: readonly Message[],
  fromId: number,
  isUnread: { has(id: number): boolean },
): Message[] {
  return list.filter((m) => m.id >= fromId && !isUnread.has(m.id));
}

/** Marks the narrow unread on the server from `anchor` on, in batches (POST /messages/flags/narrow). */
async function unreadByNarrow(terms: readonly Term[], anchor: number): Promise<void> {
  let from = anchor;
  let include = true;
  for (let i = 0; i < 100; i++) {
    const answer = await withRetries(() =>
      client.messages.flagsNarrow({
        anchor: String(from),
        include_anchor: include,
        num_before: 0,
        num_after: 1000,
        narrow: wireNarrow(terms),
        op: 'remove',
        flag: 'read',
      }),
    );
    if (answer.found_newest || answer.last_processed_id === null) return;
    from = answer.last_processed_id;
    include = false;
  }
}

/**
 * Marks `message` and the later messages of the view being read as unread. A view opened on its newest messages
 * holds every later message, so their ids are sent (POST /messages/flags); a view opened around a linked message
 * may not, so the server marks the narrow from this message on.
 */
export async function markUnreadFromHere(message: Message): Promise<void> {
  const { terms, messages } = view.value;
  const key = JSON.stringify(terms);
  const self = me.value;
  readingPaused.value = key;
  markUnreadError.value = null;
  const local = readFromHere(messages, message.id, unread.value);
  const ids = local.map((m) => m.id);
  forgetRead(ids);
  // The local echo: the counts show them unread now; the server's event says the same again.
  if (ids.length > 0) {
    const next = new Map(unread.value);
    for (const m of local) next.set(m.id, unreadEntryOf(m, self));
    unread.value = next;
  }
  try {
    if (anchorOf(terms) !== null) await unreadByNarrow(terms, message.id);
    else if (ids.length > 0) await withRetries(() => client.messages.flags(ids, 'remove', 'read'));
  } catch (err) {
    // Refused: the echo is taken back, and the reader told.
    const back = new Map(unread.value);
    for (const id of ids) back.delete(id);
    unread.value = back;
    markUnreadError.value = {
      messageId: message.id,
      text: `Could not mark as unread: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
