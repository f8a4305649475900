import { connect, type Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeAnswer, encodeRequest, encodeSignal, FRAME, FrameReader, FrameWriter } from '@confab/http';
import { IDENTITY_HEADER } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { Forwarder } from './forward.js';

export interface EventsChannelOptions {
  /** The events service's channel address, `tcp://host:port`. */
  url: string;
  /** Connections kept open; a Kubernetes Service (or the local balancer) spreads them over the replicas. */
  connections: number;
  /** No answer within this many milliseconds ends the request (a 502), as the HTTP forwarder's timeout does. */
  timeoutMs: number;
  /** Requests the channel does not carry, and every request while no connection is open. */
  fallback: Forwarder;
  onError(res: ServerResponse, err: NodeJS.ErrnoException): void;
  log: Logger;
}

export interface EventsChannel {
  forward: Forwarder;
  /** Connections open now (tests, metrics). */
  openConnections(): number;
  close(): void;
}

interface Pending {
  res: ServerResponse;
  sentAt: number;
}

/** Headers of the client's request that the events service reads: its identity token and the request id. */
const FORWARDED = [IDENTITY_HEADER, 'x-request-id'];
const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5000;

/** One persistent connection: requests out in batches, answers in, reconnects with backoff when it drops. */
class Connection {
  private socket: Socket | undefined;
  private writer: FrameWriter | undefined;
  readonly pending = new Map<number, Pending>();
  /** Open, and not told to go away: it takes new requests. */
  usable = false;
  private retryMs = FIRST_RETRY_MS;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly options: EventsChannelOptions,
  ) {
    this.open();
  }

  private open(): void {
    const socket = connect({ host: this.host, port: this.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const writer = new FrameWriter(socket);
    this.writer = writer;
    let draining = false;
    const reader = new FrameReader((type, id, payload) => {
      if (type === FRAME.answer) this.answer(id, payload);
      else if (type === FRAME.goaway) {
        // The replica is stopping: new requests go elsewhere; this connection closes once its requests are answered.
        draining = true;
        this.usable = false;
        if (this.pending.size === 0) socket.end();
      }
    });
    socket.on('connect', () => {
      this.retryMs = FIRST_RETRY_MS;
      this.usable = true;
      this.options.log.info({ url: this.options.url }, 'events channel connected');
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
        if (draining && this.pending.size === 0) socket.end();
      } catch (err) {
        this.options.log.warn({ err }, 'events channel sent a bad frame');
        socket.destroy();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (this.usable || err.code !== 'ECONNREFUSED')
        this.options.log.warn({ err: err.message }, 'events channel error');
    });
    socket.on('close', () => {
      this.usable = false;
      this.failAll(Object.assign(new Error('the events channel closed'), { code: 'ECONNRESET' }));
      if (this.stopped) return;
      this.retry = setTimeout(() => this.open(), draining ? 0 : this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    });
  }

  send(id: number, req: IncomingMessage, res: ServerResponse): void {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    this.pending.set(id, { res, sentAt: Date.now() });
    res.on('close', () => {
      // The client went away before its answer: the events service ends the request (a long poll stops waiting).
      if (!res.writableFinished && this.pending.delete(id)) this.writer?.send(encodeSignal(FRAME.cancel, id));
    });
    this.writer!.send(
      encodeRequest(id, { method: req.method ?? 'GET', url: req.url ?? '/', headers, body: Buffer.alloc(0) }),
    );
    req.resume();
  }

  private answer(id: number, payload: Buffer): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const res = pending.res;
    if (res.destroyed) return;
    const { status, headers, body } = decodeAnswer(payload);
    res.writeHead(status, headers);
    res.end(body);
  }

  private failAll(err: NodeJS.ErrnoException): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { res } of pending) this.options.onError(res, err);
  }

  /** Ends the requests waiting longer than the time limit, oldest first (the map keeps the order they were sent in). */
  expire(now: number): void {
    for (const [id, { res, sentAt }] of this.pending) {
      if (now - sentAt < this.options.timeoutMs) break;
      this.pending.delete(id);
      this.writer?.send(encodeSignal(FRAME.cancel, id));
      this.options.onError(res, Object.assign(new Error('the service did not answer in time'), { code: 'ETIMEDOUT' }));
    }
  }

  stop(): void {
    this.stopped = true;
    this.usable = false;
    if (this.retry) clearTimeout(this.retry);
    this.socket?.destroy();
  }
}

/**
 * The gateway's side of the events channel (docs/architecture.md, "The gateway"): GET and DELETE requests without a
 * body (the long polls, a queue's deletion) go as frames over a few persistent connections to the events service, which runs the same routes and answers
 * with frames; the client going away sends a cancel. Requests with a body, and every request while no connection is
 * open (the events service restarting), take the HTTP forwarder (/register included), so nothing breaks when the channel is down.
 */
export function createEventsChannel(options: EventsChannelOptions): EventsChannel {
  const address = new URL(options.url);
  const host = address.hostname;
  const port = Number(address.port);
  const connections = Array.from({ length: options.connections }, () => new Connection(host, port, options));
  let next = 0;
  let nextId = 1;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const connection of connections) connection.expire(now);
  }, 1000);
  sweep.unref();

  function pick(): Connection | undefined {
    for (let i = 0; i < connections.length; i++) {
      const connection = connections[next++ % connections.length]!;
      if (connection.usable) return connection;
    }
    return undefined;
  }

  return {
    forward(req, res) {
      const carried =
        (req.method === 'GET' || req.method === 'DELETE') &&
        (req.headers['content-length'] === undefined || req.headers['content-length'] === '0') &&
        req.headers['transfer-encoding'] === undefined;
      const connection = carried ? pick() : undefined;
      if (!connection) {
        options.fallback(req, res);
        return;
      }
      const id = nextId;
      nextId = nextId >= 0xffffffff ? 1 : nextId + 1;
      connection.send(id, req, res);
    },
    openConnections: () => connections.filter((c) => c.usable).length,
    close() {
      clearInterval(sweep);
      for (const connection of connections) connection.stop();
    },
  };
}
