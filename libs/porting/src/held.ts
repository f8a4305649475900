/** Raised inside a held transaction's body to roll it back. */
class Aborted extends Error {
  constructor() {
    super('import aborted');
  }
}

/**
 * One database transaction kept open across the steps of an import (staging, the copies of other services' facts)
 * until every service is ready: `commit` ends it with COMMIT, `abort` with ROLLBACK. `open` starts a transaction of
 * the service's own kind (a Prisma interactive transaction, a plain-pg one) whose body waits here.
 */
export class HeldTransaction<Tx> {
  private tx: Promise<Tx> | null = null;
  private done: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private cancel: ((err: Error) => void) | null = null;

  constructor(private readonly open: (body: (tx: Tx) => Promise<void>) => Promise<void>) {}

  get started(): boolean {
    return this.tx !== null;
  }

  /** The transaction, begun on first use. */
  get(): Promise<Tx> {
    this.tx ??= new Promise<Tx>((gotTx, failed) => {
      this.done = this.open(async (tx) => {
        gotTx(tx);
        await new Promise<void>((release, cancel) => {
          this.release = release;
          this.cancel = cancel;
        });
      });
      this.done.catch((err: unknown) => failed(err instanceof Error ? err : new Error(String(err))));
    });
    return this.tx;
  }

  async commit(): Promise<void> {
    if (!this.done) return;
    await this.tx;
    this.release?.();
    try {
      await this.done;
    } finally {
      this.reset();
    }
  }

  async abort(): Promise<void> {
    if (!this.done) return;
    await this.tx?.catch(() => undefined);
    this.cancel?.(new Aborted());
    await this.done.catch(() => undefined);
    this.reset();
  }

  private reset(): void {
    this.tx = null;
    this.done = null;
    this.release = null;
    this.cancel = null;
  }
}

/** Files written for an import before its commit, removed again when it is rolled back. */
export class WrittenFiles {
  private readonly paths: string[] = [];

  add(path: string): void {
    this.paths.push(path);
  }

  async removeAll(remove: (path: string) => Promise<void>): Promise<void> {
    for (const path of this.paths.splice(0)) await remove(path).catch(() => undefined);
  }

  forget(): void {
    this.paths.length = 0;
  }
}
