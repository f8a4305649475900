/**
 * A channel's topics for the compose box's `#**channel>` completion: GET /users/me/{stream_id}/topics, most recent
 * first, kept in the store's `topics` (which new messages keep current), so a channel read before is offered at once.
 */
import * as client from '../lib/client';
import { topics } from '../store/store';

const loading = new Map<number, Promise<void>>();

/** Fetches the channel's topics into the store (once at a time per channel). */
export function loadTopics(streamId: number): Promise<void> {
  const busy = loading.get(streamId);
  if (busy) return busy;
  const next = client.me
    .topics(streamId)
    .then((answer) => {
      const names = [...answer.topics].sort((a, b) => b.max_id - a.max_id).map((t) => t.name);
      topics.value = new Map(topics.value).set(streamId, names);
    })
    .catch(() => undefined)
    .finally(() => loading.delete(streamId));
  loading.set(streamId, next);
  return next;
}
