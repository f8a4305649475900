import express, { type Request, type Response, type NextFunction, type Express } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';
import { listen } from './app.js';

let defaultsCollected = false;

/** Process metrics (CPU, memory, event-loop lag, GC) once per process, labelled with the service name. */
export function collectProcessMetrics(service: string): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  register.setDefaultLabels({ service });
  collectDefaultMetrics();
}

const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route template and status',
  labelNames: ['method', 'route', 'status'] as const,
});

const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route template',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
});

/** Records one answered request; `route` is the route template, never the raw path (bounded label values). */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  requests.inc({ method, route, status: String(status) });
  duration.observe({ method, route }, seconds);
}

/** Times every request; the handler sets `res.locals.route` to the matched template. */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  res.on('finish', () => {
    const route = typeof res.locals.route === 'string' ? res.locals.route : 'unmatched';
    observeRequest(req.method, route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
  });
  next();
}

/**
 * GET /metrics in Prometheus text format, on a process's internal metrics listener only (`serveMetrics`): never on
 * an API port, so neither the gateway's public port nor a service port reveals them (docs/security.md).
 */
export function metricsRoute(app: Express): void {
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', register.contentType);
    res.send(await register.metrics());
  });
}

const jobLateness = new Histogram({
  name: 'job_lateness_seconds',
  help: 'How late jobs ran: from when a job was due to when a worker took it up (scheduled messages: to delivery)',
  labelNames: ['queue'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
});

/** Records how late a job ran: `dueAt` is when it was due (e.g. enqueue time plus its delay), in ms since the epoch. */
export function observeJobStart(queue: string, dueAt: number, now = Date.now()): void {
  jobLateness.observe({ queue }, Math.max(0, now - dueAt) / 1000);
}

/** A job queue that counts its jobs by state (a BullMQ Queue is one). */
export interface CountedJobQueue {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/** Job queues whose depth by state is read when Prometheus scrapes. */
const jobQueues = new Map<string, CountedJobQueue>();

new Gauge({
  name: 'job_queue_depth',
  help: 'Jobs in a job queue, by queue and state',
  labelNames: ['queue', 'state'] as const,
  async collect() {
    for (const [name, queue] of jobQueues) {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed').catch(() => ({}));
      for (const [state, count] of Object.entries(counts)) this.set({ queue: name, state }, count);
    }
  },
});

export function registerJobQueueDepth(queue: CountedJobQueue): void {
  jobQueues.set(queue.name, queue);
}

/**
 * A process's /metrics (and /healthz) on its internal metrics listener (CONFAB_METRICS_HOST:CONFAB_METRICS_PORT),
 * apart from its API; none when the port is 0.
 */
export async function serveMetrics(
  service: string,
  { host, port }: { host: string; port: number },
): Promise<{ port: number; close(): Promise<void> } | null> {
  if (!port) return null;
  collectProcessMetrics(service);
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  metricsRoute(app);
  return listen(app, port, host);
}

const deadLetters = new Counter({
  name: 'job_dead_letters_total',
  help: 'Jobs that failed for good after their last retry (their work is marked failed), by queue',
  labelNames: ['queue'] as const,
});

/** Counts a job that gave up after its last attempt. */
export function countDeadLetter(queue: string): void {
  deadLetters.inc({ queue });
}
