import { serviceUnavailable } from '@confab/errors';

/**
 * How many registers gather initial state at once (per replica), the rest waiting their turn in arrival order for at
 * most `waitMs` and then refused with a 503 before any work is done for them. A register asks four services for
 * state (the people, the channels, the groups) at once; without this limit a crowd of clients arriving together (a
 * restart, a morning) queued thousands of those calls in the services, each register timed out behind the others,
 * and their clients' retries queued more: almost nothing completed (bench/RESULTS.md, "Reconnect storm"). Waiting
 * costs nothing; work done for a register that then times out is lost.
 */
export class Admission {
  private running = 0;
  private readonly waiting: { admit: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await this.turn();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Registers waiting for a turn now (metrics, tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private turn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = {
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(serviceUnavailable());
        }, this.waitMs),
      };
      this.waiting.push(entry);
    });
  }

  /** The slot goes straight to the longest waiting register, or is freed. */
  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.running--;
      return;
    }
    clearTimeout(next.timer);
    next.admit();
  }
}
