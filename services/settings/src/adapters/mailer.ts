import type { Logger } from '@confab/logging';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SettingsConfig } from '../config.js';
import type { Mailer, OutgoingMail } from '../domain/ports.js';
import { startMailCapture } from './mail-capture.js';

export interface ClosableMailer extends Mailer {
  close(): Promise<void>;
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

class SmtpMailer implements ClosableMailer {
  readonly enabled = true;

  constructor(
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  async close(): Promise<void> {
    this.transport.close();
    await this.onClose();
  }
}

const disabled: ClosableMailer = {
  enabled: false,
  send: () => Promise.reject(new Error('outgoing email is not configured')),
  close: () => Promise.resolve(),
};

/** Mail through the configured SMTP server, else through the development capture server, else none. */
export async function createMailer(config: SettingsConfig['mail'], logger: Logger): Promise<ClosableMailer> {
  if (config.smtpUrl)
    return new SmtpMailer(nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS }), config.from);
  if (!config.captureDir) return disabled;
  const capture = await startMailCapture(config.captureDir, logger);
  logger.info({ dir: config.captureDir }, 'no SMTP server configured: outgoing mail is written to .eml files');
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: capture.port,
    secure: false,
    ignoreTLS: true,
    ...TIMEOUTS,
  });
  return new SmtpMailer(transport, config.from, () => capture.close());
}
