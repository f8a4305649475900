import { EventEmitter } from 'node:events';
import { connect, type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';

/**
 * The nodes `AMQP_URL` names: one URL, or several separated by commas (the nodes of a RabbitMQ cluster, for a
 * deployment without a Service in front of them: docs/architecture.md, "RabbitMQ"). A node without credentials of
 * its own takes those of the first URL.
 */
export function amqpUrls(url: string): string[] {
  const urls = url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const first = urls[0] ? new URL(urls[0]) : undefined;
  return urls.map((u, i) => {
    if (i === 0 || !first) return u;
    const parsed = new URL(u.includes('://') ? u : `${first.protocol}//${u}`);
    if (!parsed.username && first.username) {
      parsed.username = first.username;
      parsed.password = first.password;
    }
    if ((parsed.pathname === '' || parsed.pathname === '/') && first.pathname.length > 1)
      parsed.pathname = first.pathname;
    if (!parsed.search && first.search) parsed.search = first.search;
    return parsed.toString();
  });
}

/** Connects to the first node of the list that answers, trying each in turn. */
export async function connectAny(url: string): Promise<ChannelModel> {
  let last: unknown;
  for (const node of amqpUrls(url)) {
    try {
      return await connect(node);
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error('no RabbitMQ node answered');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A connection to one node of a list that recovers by itself (what the bus needs of amqplib's recovering model):
 * when the connection drops it reconnects, with backoff, to the next node that answers, and emits `connect` each
 * time it is connected and `disconnect` when it is lost. Channels are the caller's to re-create on `connect`.
 */
export class FailoverConnection extends EventEmitter {
  private model: ChannelModel | undefined;
  private stopped = false;
  private next = 0;
  private readonly urls: string[];

  constructor(
    url: string,
    private readonly backoff: { initialDelay: number; maxDelay: number } = { initialDelay: 200, maxDelay: 5000 },
  ) {
    super();
    this.urls = amqpUrls(url);
    // Spread the processes over the nodes: each starts at a node of its own, then goes round.
    this.next = Math.floor(Math.random() * this.urls.length);
  }

  /** Starts connecting in the background. */
  start(): void {
    void this.loop();
  }

  private async loop(): Promise<void> {
    let delay = this.backoff.initialDelay;
    while (!this.stopped && !this.model) {
      const url = this.urls[this.next % this.urls.length]!;
      this.next += 1;
      try {
        const model = await connect(url);
        if (this.stopped) {
          await model.close().catch(() => undefined);
          return;
        }
        this.model = model;
        model.on('error', (err: Error) => this.emit('error', err));
        model.on('close', (err?: Error) => {
          if (this.model !== model) return;
          this.model = undefined;
          this.emit('disconnect', err ?? new Error('connection closed'));
          if (!this.stopped) void this.loop();
        });
        this.emit('connect');
        return;
      } catch (err) {
        this.emit('error', err instanceof Error ? err : new Error(String(err)));
        // A round of every node failed: wait before the next, longer each time.
        if (this.next % this.urls.length === 0) {
          await sleep(delay);
          delay = Math.min(this.backoff.maxDelay, delay * 2);
        }
      }
    }
  }

  private current(): ChannelModel {
    if (!this.model) throw new Error('RabbitMQ is not connected');
    return this.model;
  }

  createChannel(): Promise<Channel> {
    return this.current().createChannel();
  }

  createConfirmChannel(): Promise<ConfirmChannel> {
    return this.current().createConfirmChannel();
  }

  async close(): Promise<void> {
    this.stopped = true;
    const model = this.model;
    this.model = undefined;
    await model?.close();
  }
}
