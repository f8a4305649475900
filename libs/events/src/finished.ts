/**
 * The (consumer, event) pairs a process's consumers finished with (applied or dead-lettered), oldest first, each with
 * the progress mark at which it finished; and the waits for the next one (read-your-writes, docs/architecture.md).
 */
export class FinishedEvents {
  private readonly done = new Map<string, number>();
  private sequence = 0;
  private waiters: (() => void)[] = [];

  /** The mark of the latest finish: what finishes from now on has a greater one. */
  get progress(): number {
    return this.sequence;
  }

  /** The mark at which `consumer` finished the event, if it did. */
  at(consumer: string, eventId: string): number | undefined {
    return this.done.get(`${consumer} ${eventId}`);
  }

  add(consumer: string, eventId: string): void {
    this.done.set(`${consumer} ${eventId}`, ++this.sequence);
    // Bounded: a user's causal events are at most a minute old, far fewer than this many events ago.
    if (this.done.size > 100_000) this.done.delete(this.done.keys().next().value!);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when the next pair finishes, or after `ms`. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
