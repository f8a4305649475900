import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * An event as its owner would have published it (an envelope of `@confab/events`: `type`, `event_id`, `payload`, …).
 * The import hands the events of one service's part to the services that keep copies of those facts, which apply
 * them as their consumers would: the copies then agree with their owner exactly.
 */
export interface ImportEvent {
  type: string;
  event_id: string;
  realm_id: number | null;
  payload: unknown;
  [key: string]: unknown;
}

export interface StageInput {
  /** The working directory holding the model's files (`model/`) and the source's files (`source/`). */
  workDir: string;
  /** The export's root directory, where the files the model names (uploads, avatars, emoji) are. */
  sourceRoot: string;
  realmId: number;
}

export interface StageResult {
  /** What was written, for the summary ("messages": 1000000). */
  counts: Record<string, number>;
  /** The events this part would have published, for the services that copy its facts. */
  events: ImportEvent[];
  /** Lines for the summary (files the export only links to, skipped records). */
  notes?: string[];
}

/** Progress of a loader's long step, shown on the operator's terminal. */
export interface LoaderProgress {
  phase: string;
  done: number;
  total: number | null;
}

/**
 * One service's part of an import, in that service's own code and on its own database only (docs/architecture.md,
 * "Moving organizations in and out"). The orchestrator calls, in order: `allocate` (ids from the service's own
 * sequences, so other parts can refer to them), `stage` and `apply` (inside one transaction of the service's
 * database, kept open), and, when every service staged its part, `commit` — or `abort` everywhere when one failed.
 */
export interface ServiceLoader {
  /** Ids from this service's sequences: kind → how many; answers kind → ids, ascending. */
  allocate(request: Record<string, number>): Promise<Record<string, number[]>>;
  /** Applies other services' events to this service's copies of their facts, as its consumers would. */
  apply(events: ImportEvent[]): Promise<void>;
  /** Writes this service's part of the model, in the import's transaction. */
  stage(input: StageInput, progress: (p: LoaderProgress) => void): Promise<StageResult>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  /** Removes what a committed import of this organization wrote (another service's commit failed after it). */
  purge(realmId: number): Promise<void>;
  /** Organizations this service holds rows of (leftovers of an interrupted import are those settings lacks). */
  realms(): Promise<number[]>;
  close(): Promise<void>;
}

/** A failure the operator can act on: which record of the export, and why. */
export class ImportError extends Error {
  constructor(
    message: string,
    readonly record?: string,
  ) {
    super(record ? `${record}: ${message}` : message);
  }
}

type Method = Exclude<keyof ServiceLoader, 'close'>;
interface Request {
  id: number;
  method: Method;
  params: unknown[];
}
type Reply =
  | { id: number; result: unknown }
  | { id: number; error: { message: string; record?: string } }
  | { progress: LoaderProgress };

/**
 * The child's side: serves a loader over stdin/stdout, one JSON value per line. The process ends when its stdin
 * closes (the orchestrator finished or died): an import not committed by then is rolled back.
 */
export function serveLoader(loader: ServiceLoader): void {
  const write = (reply: Reply) => process.stdout.write(`${JSON.stringify(reply)}\n`);
  const lines = createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    const request = JSON.parse(line) as Request;
    queue = queue.then(async () => {
      try {
        const args =
          request.method === 'stage' ? [request.params[0], (progress: LoaderProgress) => write({ progress })] : request.params;
        const result = await (loader[request.method] as (...a: unknown[]) => Promise<unknown>).apply(loader, args);
        write({ id: request.id, result: result ?? null });
      } catch (err) {
        const record = err instanceof ImportError ? err.record : undefined;
        const message = err instanceof Error ? err.message : String(err);
        write({ id: request.id, error: { message, ...(record ? { record } : {}) } });
      }
    });
  });
  lines.on('close', () => {
    void queue.then(async () => {
      await loader.abort().catch(() => undefined);
      await loader.close().catch(() => undefined);
      process.exit(0);
    });
  });
}

/**
 * The orchestrator's side: a loader running as a process of its own (`node <entry>`), with only its own service's
 * environment, spoken to over its stdin and stdout.
 */
export class LoaderProcess implements ServiceLoader {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private progressHandler: ((p: LoaderProgress) => void) | null = null;
  private stderr = '';
  private exited: Error | null = null;

  constructor(
    readonly service: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly nodeArgs: string[] = [],
  ) {}

  /** The process, started on first use (an import refused early never starts one). */
  private process(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(process.execPath, [...this.nodeArgs, this.entry], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => this.onLine(line));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-8000);
    });
    child.on('exit', (code, signal) => {
      this.exited = new Error(
        `the ${this.service} loader exited (${signal ?? code})${this.stderr ? `:\n${this.stderr.trim()}` : ''}`,
      );
      for (const { reject } of this.pending.values()) reject(this.exited);
      this.pending.clear();
    });
    child.on('error', (err) => {
      this.exited = err;
    });
    return child;
  }

  private onLine(line: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      return; // not ours: a library writing to stdout
    }
    if ('progress' in reply) {
      this.progressHandler?.(reply.progress);
      return;
    }
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if ('error' in reply) waiter.reject(new ImportError(reply.error.message, reply.error.record));
    else waiter.resolve(reply.result);
  }

  private call<T>(method: Method, ...params: unknown[]): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    const child = this.process();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.stdin!.write(`${JSON.stringify({ id, method, params } satisfies Request)}\n`);
    });
  }

  allocate(request: Record<string, number>) {
    return this.call<Record<string, number[]>>('allocate', request);
  }
  apply(events: ImportEvent[]) {
    return this.call<void>('apply', events);
  }
  async stage(input: StageInput, progress: (p: LoaderProgress) => void) {
    this.progressHandler = progress;
    try {
      return await this.call<StageResult>('stage', input);
    } finally {
      this.progressHandler = null;
    }
  }
  commit() {
    return this.call<void>('commit');
  }
  abort() {
    return this.exited || !this.child ? Promise.resolve() : this.call<void>('abort');
  }
  purge(realmId: number) {
    return this.call<void>('purge', realmId);
  }
  realms() {
    return this.call<number[]>('realms');
  }

  /** Ends the process (closing its stdin, so it rolls back whatever it did not commit) and waits for it. */
  async close(): Promise<void> {
    const child = this.child;
    if (this.exited || !child) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await done;
    clearTimeout(timer);
  }
}
