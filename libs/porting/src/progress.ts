/** Where progress goes: the operator's terminal (redrawn in place) or a log (a line now and then). */
export interface ProgressSink {
  isTTY?: boolean;
  write(text: string): void;
}

const WIDTH = 28;
const number = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * A progress bar with counts and rate, one phase at a time ("messages 450,000/1,000,000 12,345/s"). On a terminal
 * it is redrawn at most ten times a second; elsewhere a line is written every five seconds and at each phase's end.
 */
export class Progress {
  private name = '';
  private total: number | null = null;
  private done = 0;
  private started = 0;
  private lastDraw = 0;

  constructor(
    private readonly sink: ProgressSink,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private get tty(): boolean {
    return this.sink.isTTY === true;
  }

  start(name: string, total: number | null): void {
    this.finish();
    this.name = name;
    this.total = total;
    this.done = 0;
    this.started = this.now();
    this.lastDraw = 0;
    this.draw(true);
  }

  /** Sets the count done so far (and the total, when it becomes known). */
  update(done: number, total?: number | null): void {
    this.done = done;
    if (total !== undefined) this.total = total;
    this.draw(false);
  }

  finish(): void {
    if (!this.name) return;
    if (this.total !== null) this.done = Math.max(this.done, this.total);
    this.draw(true);
    if (this.tty) this.sink.write('\n');
    this.name = '';
  }

  /** The line as drawn (also what tests read). */
  line(): string {
    const seconds = Math.max((this.now() - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const counts = this.total === null ? number(this.done) : `${number(this.done)}/${number(this.total)}`;
    const bar =
      this.total === null || this.total === 0
        ? ''
        : (() => {
            const filled = Math.min(WIDTH, Math.round((this.done / this.total) * WIDTH));
            const percent = Math.min(100, Math.floor((this.done / this.total) * 100));
            return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(percent).padStart(3)}% `;
          })();
    return `${this.name.padEnd(14)} ${bar}${counts} ${number(rate)}/s ${seconds.toFixed(1)}s`;
  }

  private draw(force: boolean): void {
    const now = this.now();
    const interval = this.tty ? 100 : 5000;
    if (!force && now - this.lastDraw < interval) return;
    this.lastDraw = now;
    if (this.tty) this.sink.write(`\r\u001b[2K${this.line()}`);
    else this.sink.write(`${this.line()}\n`);
  }
}
