import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { NODE_FLAGS, REPO_ROOT, type ProcessSpec } from './catalog.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Confab process run from its built entry point, with its output in a log file (and optionally echoed). */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;

  constructor(
    readonly spec: ProcessSpec,
    public env: Record<string, string>,
    private readonly logFile: string,
    private readonly echo: boolean,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    mkdirSync(dirname(this.logFile), { recursive: true });
    this.log = createWriteStream(this.logFile, { flags: 'a' });
    // Node flags NODE_OPTIONS refuses (e.g. --cpu-prof for a profile of a benchmark run).
    const nodeArgs = (this.env.CONFAB_NODE_ARGS ?? process.env.CONFAB_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(
      process.execPath,
      [...NODE_FLAGS, ...nodeArgs, join(REPO_ROOT, this.spec.dir, this.spec.entry)],
      {
        cwd: join(REPO_ROOT, this.spec.dir),
        env: { ...process.env, ...this.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const prefix = `${this.spec.name.padEnd(17)}| `;
    const forward = (data: Buffer) => {
      this.log?.write(data);
      if (this.echo)
        for (const line of data.toString().split('\n')) if (line) process.stdout.write(prefix + line + '\n');
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    child.on('exit', (code, signal) => {
      this.log?.write(`\n[${this.spec.name} exited: code=${code} signal=${signal}]\n`);
    });
    this.child = child;
  }

  private waitForExit(timeoutMs: number): Promise<boolean> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Graceful stop (SIGTERM), then SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    if (!(await this.waitForExit(timeoutMs))) {
      this.child!.kill('SIGKILL');
      await this.waitForExit(5000);
    }
    this.log?.end();
  }

  /** Abrupt death (a crash), for fault tests. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.waitForExit(5000);
  }
}

/** Waits until `url` (a /readyz) answers 200, or fails with the process's log location. */
export async function waitReady(
  url: string,
  timeoutMs: number,
  what: string,
  process?: ManagedProcess,
  logFile?: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process && !process.running) throw new Error(`${what} exited during start-up; see ${logFile}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms (${url}); see ${logFile}`);
}
