import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A development push relay (a development tool, not part of the product): what `npm start` points the push service
 * at, so that a person can watch notifications happen without Zulip's push notification service or FCM/APNs. It
 * speaks services/push/src/relay/PROTOCOL.md: accepts device registrations (answering a device id of its own) and
 * notifications (once per Idempotency-Key, as the protocol requires), logs one line per notification, and lists what
 * it received at GET /notifications (newest last; JSON). The payloads are end-to-end encrypted for the devices, so
 * it shows who they were for and how big they were, never their content.
 */
export interface DevRelayNotification {
  received_at: string;
  device_id: string;
  push_key_id?: number;
  push_account_id?: number;
  priority: string;
  encrypted_bytes: number;
  idempotency_key: string;
}

export interface DevRelayRegistration {
  received_at: string;
  device_id: string;
  realm_id: number;
  token_kind: string;
}

export class DevRelay {
  readonly notifications: DevRelayNotification[] = [];
  readonly registrations: DevRelayRegistration[] = [];
  private readonly answered = new Map<string, unknown>();
  private server: Server | undefined;
  private nextDevice = 1;
  private boundPort = 0;

  constructor(
    readonly serverId: string,
    readonly serverKey: string,
    private readonly log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
    /** Most notifications kept for the listing. */
    private readonly keep = 500,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    this.boundPort = typeof address === 'object' && address ? address.port : port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && (req.url === '/notifications' || req.url === '/')) {
      return send(res, 200, { registrations: this.registrations, notifications: this.notifications });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const expected = `Basic ${Buffer.from(`${this.serverId}:${this.serverKey}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(res, 401, { code: 'UNAUTHORIZED', msg: 'Bad credentials' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return send(res, 400, { code: 'BAD_REQUEST', msg: 'Not JSON' });
    }
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '')
      return send(res, 400, { code: 'BAD_REQUEST', msg: 'Idempotency-Key required' });
    const previous = this.answered.get(key);
    if (previous !== undefined) return send(res, 200, previous);
    const now = new Date().toISOString();
    let answer: unknown;
    if (req.url === '/api/v1/remotes/push/e2ee/register') {
      const deviceId = `dev-${this.nextDevice++}`;
      this.registrations.push({
        received_at: now,
        device_id: deviceId,
        realm_id: Number(body.realm_id),
        token_kind: String(body.token_kind),
      });
      this.log(
        `[dev-relay] registered device ${deviceId} (${String(body.token_kind)}, realm ${String(body.realm_id)})`,
      );
      answer = { device_id: deviceId };
    } else if (req.url === '/api/v1/remotes/push/e2ee/notify') {
      const encrypted = typeof body.encrypted_data === 'string' ? Buffer.from(body.encrypted_data, 'base64').length : 0;
      const entry: DevRelayNotification = {
        received_at: now,
        device_id: String(body.device_id),
        ...(typeof body.push_key_id === 'number' ? { push_key_id: body.push_key_id } : {}),
        ...(typeof body.push_account_id === 'number' ? { push_account_id: body.push_account_id } : {}),
        priority: String(body.priority),
        encrypted_bytes: encrypted,
        idempotency_key: key,
      };
      this.notifications.push(entry);
      if (this.notifications.length > this.keep) this.notifications.shift();
      this.log(
        `[dev-relay] notification for device ${entry.device_id} (${entry.priority}, ${encrypted} encrypted bytes, ${key})`,
      );
      answer = { delivered: true };
    } else {
      return send(res, 404, { msg: 'Not found' });
    }
    this.answered.set(key, answer);
    if (this.answered.size > 10_000) this.answered.delete(this.answered.keys().next().value!);
    send(res, 200, answer);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
