import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A push relay ("bouncer") on 127.0.0.1 for the e2e suite, speaking services/push/src/relay/PROTOCOL.md. It can be
 * told to accept, to refuse our credentials, to fail with 5xx, to hang, to lose its first answer after acting, or to
 * stop listening (a closed port). It honours Idempotency-Key as the protocol requires and records what it did.
 */
export type RelayMode = 'accept' | 'refuse' | 'fail' | 'hang' | 'lose-first-answer' | 'reject-registration';

/** A JSON request body as the relay received it. */

export type JsonBody = Record<string, any>;

export interface RelayRequest {
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: JsonBody;
}

export class RelayStub {
  mode: RelayMode = 'accept';
  /** Every request that reached the relay, repeats included. */
  readonly requests: RelayRequest[] = [];
  /** Registrations and notifications the relay acted on (once per idempotency key). */
  readonly registrations: RelayRequest[] = [];
  readonly deliveries: RelayRequest[] = [];
  private readonly answered = new Map<string, { status: number; body: unknown }>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;
  private nextDeviceId = 1;

  constructor(
    readonly serverId: string,
    readonly serverKey: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
  }

  /** Stops listening and drops every connection: the port is closed until start() listens on it again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Forgets what it recorded (not the idempotency keys it answered). */
  clear(): void {
    this.requests.length = 0;
    this.registrations.length = 0;
    this.deliveries.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: JsonBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonBody;
    } catch {
      return send(res, 400, { code: 'BAD_REQUEST', msg: 'not JSON' });
    }
    const idempotencyKey = header(req, 'idempotency-key');
    const request: RelayRequest = {
      path: req.url ?? '',
      authorization: header(req, 'authorization'),
      idempotencyKey,
      body,
    };
    this.requests.push(request);
    const expected = `Basic ${Buffer.from(`${this.serverId}:${this.serverKey}`).toString('base64')}`;
    if (this.mode === 'refuse' || request.authorization !== expected)
      return send(res, 401, { code: 'UNAUTHORIZED', msg: 'Invalid credentials' });
    if (this.mode === 'fail') return send(res, 500, { msg: 'Internal server error' });
    if (this.mode === 'hang') return; // never answers; stop() drops the socket
    if (idempotencyKey === undefined) return send(res, 400, { code: 'BAD_REQUEST', msg: 'Idempotency-Key required' });
    const previous = this.answered.get(idempotencyKey);
    if (previous) return send(res, previous.status, previous.body);

    let answer: { status: number; body: unknown };
    if (req.url === '/api/v1/remotes/push/e2ee/register') {
      if (this.mode === 'reject-registration') {
        answer = { status: 400, body: { code: 'INVALID_BOUNCER_PUBLIC_KEY', msg: 'Invalid bouncer public key' } };
      } else {
        this.registrations.push(request);
        answer = { status: 200, body: { device_id: `relay-${this.nextDeviceId++}` } };
      }
    } else if (req.url === '/api/v1/remotes/push/e2ee/notify') {
      this.deliveries.push(request);
      answer = { status: 200, body: { delivered: true } };
    } else {
      return send(res, 404, { msg: 'Not found' });
    }
    this.answered.set(idempotencyKey, answer);
    // Acted, but the answer never arrives: the sender must retry with the same key and not cause a second delivery.
    if (this.mode === 'lose-first-answer') return;
    send(res, answer.status, answer.body);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
