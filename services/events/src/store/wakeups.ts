import type { RedisClient } from '@confab/runtime';
import type { Logger } from '@confab/logging';

export type WakeReason = 'events' | 'superseded' | 'shutdown';

interface Waiter {
  generation: number;
  wake: (reason: WakeReason) => void;
}

export interface WaitHandle {
  setGeneration(generation: number): void;
  unregister(): void;
}

/** A wake-up notice on the shared channel: queues that got events, or queues whose waiting poll was replaced. */
interface Notice {
  q?: string[];
  s?: Record<string, number>;
}

/**
 * Long-poll wake-ups across replicas: whoever appends to queues publishes their ids on one Redis channel (the append
 * script does, in the same atomic step), and each
 * replica wakes the polls it holds for them. A poll registers here before it looks at its queue, so an event that
 * lands in between is either seen by that look or announced afterwards.
 */
export class Wakeups {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      try {
        this.dispatch(JSON.parse(text) as Notice);
      } catch (err) {
        this.log.warn({ err }, 'bad wake-up notice');
      }
    });
    // After a reconnect notices may have been missed: every poll looks at its queue again — once the command
    // connection its look goes through is back too. Woken before that, a poll whose queue Redis lost would answer 503
    // rather than BAD_EVENT_QUEUE_ID.
    this.subscriber.on('ready', () => {
      if (this.publisher.status === 'ready') this.wakeAll('events');
      else this.publisher.once('ready', () => this.wakeAll('events'));
    });
    await this.subscriber.subscribe(this.channel);
  }

  private dispatch(notice: Notice): void {
    for (const queueId of notice.q ?? []) {
      for (const waiter of this.waiters.get(queueId) ?? []) waiter.wake('events');
    }
    for (const [queueId, generation] of Object.entries(notice.s ?? {})) {
      for (const waiter of this.waiters.get(queueId) ?? [])
        if (waiter.generation < generation) waiter.wake('superseded');
    }
  }

  /**
   * Registers a poll before it looks at its queue (its generation is set once known); `unregister` ends it.
   * Until then it cannot be superseded, only woken by events.
   */
  register(queueId: string, wake: (reason: WakeReason) => void): WaitHandle {
    const waiter: Waiter = { generation: Number.POSITIVE_INFINITY, wake };
    let set = this.waiters.get(queueId);
    if (!set) this.waiters.set(queueId, (set = new Set()));
    set.add(waiter);
    if (this.closed) wake('shutdown');
    return {
      setGeneration: (generation: number) => {
        waiter.generation = generation;
      },
      unregister: () => {
        set.delete(waiter);
        if (set.size === 0 && this.waiters.get(queueId) === set) this.waiters.delete(queueId);
      },
    };
  }

  async announceSuperseded(queueId: string, generation: number): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ s: { [queueId]: generation } }));
  }

  private wakeAll(reason: WakeReason): void {
    for (const set of this.waiters.values()) for (const waiter of set) waiter.wake(reason);
  }

  /** Answers every open poll now (with what its queue holds), so clients reconnect to another replica. */
  close(): void {
    this.closed = true;
    this.wakeAll('shutdown');
  }

  get waiting(): number {
    let n = 0;
    for (const set of this.waiters.values()) n += set.size;
    return n;
  }
}
