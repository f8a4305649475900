import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@confab/logging';
import { SMTPServer } from 'smtp-server';

export interface MailCapture {
  port: number;
  close(): Promise<void>;
}

/**
 * A development SMTP server on 127.0.0.1 that accepts every message and writes it, as sent, to `<dir>/<time>-<id>.eml`
 * (any mail program opens those). It lets development use the same SMTP path as production.
 */
export function startMailCapture(dir: string, logger: Logger, port = 0): Promise<MailCapture> {
  mkdirSync(dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS'],
    size: 10 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`);
      pipeline(stream, createWriteStream(file)).then(
        () => {
          const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
          logger.info({ file, to }, 'mail captured');
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
