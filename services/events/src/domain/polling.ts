import { invalid } from '@confab/errors';
import type { QueueStore, StoredEvent } from '../store/queues.js';
import type { WakeReason, Wakeups } from '../store/wakeups.js';
import { badEventQueue } from './errors.js';

export interface PollingDeps {
  store: QueueStore;
  wakeups: Wakeups;
  heartbeat: { seconds: number; jitterSeconds: number };
}

export interface PollInput {
  userId: number;
  realmId: number;
  queueId: string;
  lastEventId: number | undefined;
  dontBlock: boolean;
  /** Resolves when the client went away (its answer would be lost). */
  clientGone: Promise<void>;
}

/** Events as JSON text, each with its queue id added (stored events are JSON objects without one). */
export function eventsJson(stored: readonly StoredEvent[]): string {
  return `[${stored.map(({ id, json }) => (json === '{}' ? `{"id":${id}}` : `{"id":${id},${json.slice(1)}`)).join(',')}]`;
}

const HEARTBEAT = JSON.stringify({ type: 'heartbeat' });

/**
 * GET /events (Zulip's fetch_events): acknowledge through last_event_id, answer at once when events are waiting
 * or dont_block is set, otherwise hold the request until an event arrives, a heartbeat is due, a newer poll of
 * the same queue replaces this one, or the process shuts down.
 */
export async function getEvents(deps: PollingDeps, input: PollInput): Promise<StoredEvent[]> {
  if (input.lastEventId === undefined) throw invalid("Missing 'last_event_id' argument");
  const { store, wakeups, heartbeat } = deps;
  const queueId = input.queueId;

  let wakeNow: ((reason: WakeReason | 'heartbeat' | 'gone') => void) | undefined;
  const pending: (WakeReason | 'heartbeat' | 'gone')[] = [];
  const signal = (reason: WakeReason | 'heartbeat' | 'gone') => {
    if (wakeNow) {
      const fn = wakeNow;
      wakeNow = undefined;
      fn(reason);
    } else pending.push(reason);
  };
  const handle = input.dontBlock ? undefined : wakeups.register(queueId, signal);
  let generation: number | undefined;
  let waitEnded = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await store.poll(queueId, input.userId, input.lastEventId, !input.dontBlock);
    if (result.status !== 'ok') {
      if (result.status === 'bad') throw badEventQueue(queueId);
      if (result.status === 'pruned')
        throw invalid(`An event newer than ${input.lastEventId} has already been pruned!`);
      throw invalid(`Event ${input.lastEventId} was not in this queue`);
    }
    generation = result.generation;
    handle?.setGeneration(generation);
    // A poll still waiting on this queue (on any replica) answers now: the newest poll is the one that waits.
    if (result.previousWaiter !== null) await wakeups.announceSuperseded(queueId, generation);
    if (result.events.length > 0 || input.dontBlock) return result.events;

    // Whole seconds: node keeps one timer list per duration, so polls of equal durations share it (a fractional
    // jitter gave every poll a list of its own, added to and taken from the timers' heap each time).
    const seconds = heartbeat.seconds + Math.round(Math.random() * heartbeat.jitterSeconds);
    timer = setTimeout(() => signal('heartbeat'), seconds * 1000);
    void input.clientGone.then(() => signal('gone'));
    for (;;) {
      const reason =
        pending.shift() ?? (await new Promise<WakeReason | 'heartbeat' | 'gone'>((resolve) => (wakeNow = resolve)));
      if (reason === 'gone') return [];
      if (reason === 'heartbeat') await store.append([[queueId, HEARTBEAT]]);
      // The events and the end of the wait in one round trip, unless the wake-up found nothing (the wait goes on).
      const read = await store.readEnding(queueId, generation, reason !== 'events');
      // The queue is gone. Deleted by its client (DELETE /events, which then supersedes this poll): the poll
      // answers success with nothing, as Zulip finishes the handler before collecting the queue. Otherwise (Redis
      // restarted empty, or it expired) the client must register again, so it is told now rather than at its next
      // poll, a heartbeat later (Zulip's BAD_EVENT_QUEUE_ID).
      if (read.gone) {
        waitEnded = true;
        if (reason === 'superseded') return [];
        throw badEventQueue(queueId);
      }
      waitEnded = read.ended;
      if (read.ended) return read.events;
    }
  } finally {
    if (timer) clearTimeout(timer);
    handle?.unregister();
    // Not awaited: the answer need not wait for the bookkeeping (a stale mark only costs a spare notice).
    if (generation !== undefined && !input.dontBlock && !waitEnded)
      void store.endWait(queueId, generation).catch(() => undefined);
  }
}
