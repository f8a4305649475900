/**
 * Marking messages read (POST /messages/flags), so that a request the server could not take is not lost.
 *
 * The conversation view asks for the unread messages it shows to be marked read when its list or the unread set
 * changes. The server may answer such a request with 503 "retry later" (its read-your-writes gate: the service has
 * not yet applied this user's previous change, e.g. a message they just sent) or 429. The request used to be sent
 * once with its error ignored, and as nothing on the page changed afterwards, nothing asked again: the messages
 * stayed unread, their badge with them. Here refused requests are sent again after the server's Retry-After (or a
 * growing pause), for the messages still unread; the counts change when the server's `update_message_flags` event
 * comes, as for every other change.
 */
import * as client from '../lib/client';
import { unread } from '../store/store';
import { retryable, retryDelay } from './retry';

const waiting = new Set<number>();
const sending = new Set<number>();
let timer: ReturnType<typeof setTimeout> | undefined;
let pause = 500;

function schedule(ms: number): void {
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    void flush();
  }, ms);
}

async function flush(): Promise<void> {
  const ids = [...waiting].filter((id) => unread.value.has(id) && !sending.has(id));
  waiting.clear();
  if (ids.length === 0) return;
  for (const id of ids) sending.add(id);
  try {
    await client.messages.flags(ids, 'add', 'read');
    pause = 500;
  } catch (err) {
    if (retryable(err)) {
      for (const id of ids) waiting.add(id);
      const delay = retryDelay(err, pause);
      pause = Math.min(pause * 2, 10_000);
      for (const id of ids) sending.delete(id);
      schedule(delay);
    }
  } finally {
    for (const id of ids) sending.delete(id);
  }
}

/** Marks these messages read on the server, now (and again later if the server asks to retry). */
export function markRead(ids: readonly number[]): void {
  for (const id of ids) if (!sending.has(id)) waiting.add(id);
  if (waiting.size > 0) schedule(0);
}

/** Drops these messages from what is waiting to be marked read (they are being marked unread: Zulip's
 * send_read.remove_from_queue), so that a pending request does not undo that. */
export function forgetRead(ids: readonly number[]): void {
  for (const id of ids) waiting.delete(id);
}
