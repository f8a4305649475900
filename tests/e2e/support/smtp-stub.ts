import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Map<string, string>;
  subject: string;
  /** The decoded text body (of a multipart message, its text/plain part). */
  text: string;
  /** The decoded text/html part of a multipart message. */
  html?: string;
  raw: string;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    }
    default:
      return body;
  }
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header value. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
  );
}

/** An entity as nodemailer writes one: headers (folded lines joined), then the decoded body. */
function parseEntity(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), decodeHeader(line.slice(colon + 1).trim()));
  }
  const body = decodeBody(raw.slice(split + 4), headers.get('content-transfer-encoding') ?? '7bit');
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

/** A message as nodemailer writes one: single-part, or multipart/alternative (plain text and HTML). */
export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const { headers, body } = parseEntity(raw);
  const boundary = /multipart\/[a-z]+;.*boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  const mail: ReceivedMail = { ...envelope, headers, subject: headers.get('subject') ?? '', text: body, raw };
  if (!boundary) return mail;
  const parts = raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parseEntity(part.replace(/^\r\n/, '')));
  const ofType = (type: string) => parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type))?.body;
  return { ...mail, text: ofType('text/plain') ?? '', html: ofType('text/html') };
}

/** An SMTP server on 127.0.0.1 for one test file: it accepts everything and keeps what it received. */
export class SmtpStub {
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    readonly received: ReceivedMail[],
  ) {}

  static start(): Promise<SmtpStub> {
    const received: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          received.push(
            parseMail(Buffer.concat(chunks).toString('utf8'), {
              from,
              to: session.envelope.rcptTo.map((r) => r.address),
            }),
          );
          callback();
        });
      },
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.server.address();
        resolve(new SmtpStub(server, typeof address === 'object' && address ? address.port : 0, received));
      });
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The first message to `to` (already received or arriving within `timeoutMs`). */
  async mailTo(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.to.includes(to));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
