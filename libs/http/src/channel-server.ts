import { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { Logger } from '@confab/logging';
import {
  decodeRequest,
  encodeAnswer,
  encodeSignal,
  FRAME,
  FrameReader,
  FrameWriter,
  type ChannelRequest,
} from './channel-frames.js';

/** Serves one request that came over the channel, answering on `answer`. */
export type ChannelDispatch = (request: ChannelRequest, answer: ChannelAnswer) => void;

type HeaderValue = string | number | string[];

/**
 * The answer to a request that came over the channel. It has the members of node's ServerResponse that the route
 * layer and the error writers use (status, headers, `end`, `destroy`, `finish` and `close` events), so a route runs
 * unchanged whichever way its request came; `end` sends one answer frame.
 */
export class ChannelAnswer extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableFinished = false;
  destroyed = false;
  private readonly headers: Record<string, HeaderValue> = {};

  constructor(
    private readonly deliver: (status: number, headers: Record<string, HeaderValue>, body: string | Buffer) => void,
  ) {
    super();
  }

  setHeader(name: string, value: HeaderValue): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }

  end(body: string | Buffer = ''): this {
    if (this.headersSent) return this;
    this.headersSent = true;
    this.writableFinished = true;
    this.deliver(this.statusCode, this.headers, body);
    this.emit('finish');
    return this;
  }

  /** A failure after the answer started (it cannot happen here: an answer is one frame), or no answer at all: a 502. */
  destroy(): this {
    if (this.headersSent) return this;
    this.statusCode = 502;
    this.headers['content-type'] = 'application/json';
    this.end(JSON.stringify({ result: 'error', msg: 'Bad gateway: the service did not answer', code: 'BAD_GATEWAY' }));
    return this;
  }

  /** The client went away (a cancel frame, or the gateway's connection closed): as node's `close` before finishing. */
  cancel(): void {
    if (this.writableFinished || this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }

  /** The route layer's view of it: a ServerResponse, of which it uses only what this class has. */
  asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

export interface RunningChannel {
  port: number;
  /**
   * Stops taking connections and tells every gateway to send nothing more (a goaway frame); each closes its
   * connection once its requests are answered. Connections still open after `graceMs` are dropped.
   */
  close(graceMs?: number): Promise<void>;
}

/** One gateway connection: requests in, answers out in batches, cancels end their requests. */
function serveConnection(socket: Socket, dispatch: ChannelDispatch, log: Logger): { goaway(): void; drop(): void } {
  socket.setNoDelay(true);
  const writer = new FrameWriter(socket);
  const open = new Map<number, ChannelAnswer>();
  const reader = new FrameReader((type, id, payload) => {
    if (type === FRAME.request) {
      const answer = new ChannelAnswer((status, headers, body) => {
        // A cancelled request's answer is dropped: nobody waits for it.
        if (open.delete(id)) writer.send(encodeAnswer(id, status, headers, body));
      });
      open.set(id, answer);
      dispatch(decodeRequest(payload), answer);
    } else if (type === FRAME.cancel) {
      const answer = open.get(id);
      open.delete(id);
      answer?.cancel();
    }
  });
  socket.on('data', (chunk: Buffer) => {
    try {
      reader.push(chunk);
    } catch (err) {
      log.warn({ err }, 'dropping a channel connection that sent a bad frame');
      socket.destroy();
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    for (const answer of open.values()) answer.cancel();
    open.clear();
  });
  return {
    goaway: () => {
      writer.send(encodeSignal(FRAME.goaway, 0));
      writer.flush();
    },
    drop: () => socket.destroy(),
  };
}

/** Listens for gateways' channel connections (docs/architecture.md, "The gateway") and serves their requests. */
export function listenChannel(
  dispatch: ChannelDispatch,
  port: number,
  host: string,
  log: Logger,
): Promise<RunningChannel> {
  const connections = new Map<Socket, { goaway(): void; drop(): void }>();
  const server: Server = createServer((socket) => {
    connections.set(socket, serveConnection(socket, dispatch, log));
    socket.once('close', () => connections.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: (graceMs = 10_000) =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const connection of connections.values()) connection.goaway();
            setTimeout(() => {
              for (const connection of connections.values()) connection.drop();
            }, graceMs).unref();
          }),
      });
    });
  });
}
