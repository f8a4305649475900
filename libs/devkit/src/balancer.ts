import { request, Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';

/** Connection failures that mean "this replica is not there": the request never reached it, so another may take it. */
const NOT_THERE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/**
 * A small HTTP load balancer for the development stack (README, "Replicas"): each request goes to the next of its
 * backends in turn (round robin, no sticky sessions), as a Kubernetes Service spreads requests over pods. Headers,
 * Host included, pass unchanged; a request whose replica refuses the connection (stopped, restarting) goes to the
 * next one. Long polls simply stay open as long as their backend answers.
 */
export class LocalBalancer {
  private server: Server | undefined;
  private next = 0;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  constructor(private readonly backends: readonly { host: string; port: number }[]) {}

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = createServer((req, res) => this.forward(req, res, 0));
    server.keepAliveTimeout = 65_000;
    // Long polls last up to a minute and a half: no request timeout here, the backends decide.
    server.requestTimeout = 0;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  private forward(req: IncomingMessage, res: ServerResponse, tried: number): void {
    const backend = this.backends[this.next++ % this.backends.length]!;
    const upstream = request(
      {
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent: this.agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders as unknown as Record<string, string>);
        // pipeline, not pipe: an answer the backend breaks off midway (a proxied download over its cap) is broken
        // off for the client too, as through a Kubernetes Service, instead of leaving it waiting for the end.
        pipeline(answer, res, () => undefined);
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      // Bodies stream straight to the backend: only a request without one can be sent again.
      if (NOT_THERE.has(err.code ?? '') && !res.headersSent && tried + 1 < this.backends.length && !hasBody(req)) {
        this.forward(req, res, tried + 1);
        return;
      }
      // Once the answer has begun, only breaking it off tells the client it is incomplete.
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`balancer: ${err.message}`);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.agent.destroy();
  }
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The TCP twin of LocalBalancer, for the events service's channel: each new connection goes to the next backend in
 * turn (the next that accepts it), bytes copied both ways, as a Kubernetes Service spreads connections over pods.
 */
export class TcpBalancer {
  private server: TcpServer | undefined;
  private next = 0;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly backends: readonly { host: string; port: number }[]) {}

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = createTcpServer((client) => this.forward(client, 0));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  private forward(client: Socket, tried: number): void {
    client.pause();
    const backend = this.backends[this.next++ % this.backends.length]!;
    const upstream = connect(backend.port, backend.host);
    const track = (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    };
    if (tried === 0) client.on('error', () => undefined);
    upstream.once('error', (err: NodeJS.ErrnoException) => {
      // A replica that refuses (stopped, restarting): the next one takes the connection.
      if (err.code === 'ECONNREFUSED' && tried + 1 < this.backends.length) this.forward(client, tried + 1);
      else client.destroy();
    });
    upstream.once('connect', () => {
      track(client);
      track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
