/**
 * Widget updates shown before the server has them (optimistic votes and checks). A vote or a check is shown at once
 * as a local submessage after the message's own; when the server's `submessage` event (or a page fetched later)
 * brings the same update from this user, newer than what the message had when it was sent, the local one is no
 * longer shown, so nothing counts twice (a to-do check toggles: applied twice it would undo itself). A refused
 * update is taken away.
 */
import { signal } from '@preact/signals';
import type { Submessage } from './poll-data';

export interface PendingUpdate {
  token: number;
  sender_id: number;
  msg_type: string;
  content: string;
  /** The newest submessage id the message had when this was sent: only later ones can be its echo. */
  after: number;
}

/** Per message id, its updates on their way, in the order sent. */
export const pendingUpdates = signal<ReadonlyMap<number, readonly PendingUpdate[]>>(new Map());
let tokens = 0;

const newestId = (subs: readonly Submessage[] | undefined) => Math.max(0, ...(subs ?? []).map((s) => s.id ?? 0));

/** The pending updates the server has not echoed yet, in order. */
function unconfirmed(
  submessages: readonly Submessage[] | undefined,
  pending: readonly PendingUpdate[],
): PendingUpdate[] {
  const used = new Set<number>();
  const left: PendingUpdate[] = [];
  for (const p of pending) {
    // Each echo confirms one pending update, the earliest it can.
    const echo = (submessages ?? []).find(
      (s) =>
        s.id !== undefined &&
        !used.has(s.id) &&
        s.id > p.after &&
        s.sender_id === p.sender_id &&
        s.msg_type === p.msg_type &&
        s.content === p.content,
    );
    if (echo?.id !== undefined) used.add(echo.id);
    else left.push(p);
  }
  return left;
}

/** The submessages to show: the message's own, then those of its pending updates that the server has not echoed. */
export function withPending(
  submessages: readonly Submessage[] | undefined,
  pending: readonly PendingUpdate[] | undefined,
): readonly Submessage[] | undefined {
  if (!pending || pending.length === 0) return submessages;
  const shown = unconfirmed(submessages, pending).map((p) => ({
    sender_id: p.sender_id,
    msg_type: p.msg_type,
    content: p.content,
  }));
  return shown.length === 0 ? submessages : [...(submessages ?? []), ...shown];
}

/** Shows an update at once; returns the function that takes it back (when the server refuses it). */
export function addPending(
  messageId: number,
  update: Omit<PendingUpdate, 'token' | 'after'>,
  current: readonly Submessage[] | undefined,
): () => void {
  const entry: PendingUpdate = { ...update, token: ++tokens, after: newestId(current) };
  const next = new Map(pendingUpdates.value);
  // Those the server has echoed meanwhile are done with: only updates on their way stay listed.
  next.set(messageId, [...unconfirmed(current, next.get(messageId) ?? []), entry]);
  pendingUpdates.value = next;
  return () => {
    const back = new Map(pendingUpdates.value);
    const rest = (back.get(messageId) ?? []).filter((p) => p.token !== entry.token);
    if (rest.length > 0) back.set(messageId, rest);
    else back.delete(messageId);
    pendingUpdates.value = back;
  };
}
