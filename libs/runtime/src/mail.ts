import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from '@confab/config';
import type { Logger } from '@confab/logging';
import nodemailer, { type Transporter } from 'nodemailer';
import { startMailCapture } from './mail-capture.js';

/**
 * Outgoing mail, the same in every process that sends some (settings' confirmations and invitations, push-worker's
 * missed-message emails): through the configured SMTP server, else in development through a capture server inside
 * the process that writes each message to `.confab/mail/*.eml`, else none.
 */

/** The variables of outgoing mail, for a process's environment schema. */
export const mailEnv = {
  /** Outgoing mail server, e.g. smtp://user:password@mail.example.com:587 (smtps:// for implicit TLS). */
  CONFAB_SMTP_URL: z
    .union([z.literal(''), z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')])
    .default(''),
  CONFAB_EMAIL_FROM: z.string().min(3).default('noreply@localhost'),
  /**
   * Without an SMTP server, mail goes over SMTP to a capture server inside this process that writes each message
   * as an .eml file here. Development default: <CONFAB_DATA_DIR>/mail (<repository>/.confab/mail); elsewhere off
   * unless set.
   */
  CONFAB_MAIL_CAPTURE_DIR: z.string().optional(),
  /**
   * The one directory every process writes under (the image sets /data, a volume). Development default:
   * <repository>/.confab; elsewhere a directory per deployment under the system's temporary directory.
   */
  CONFAB_DATA_DIR: z.string().optional(),
};

export interface MailConfig {
  /** '' when none: then captured in development, or not sent. */
  smtpUrl: string;
  from: string;
  /** '' when mail is not captured. */
  captureDir: string;
}

/** <repository>/.confab, next to the development logs (this file is libs/runtime/dist/mail.js). */
const DEV_DATA_DIR = resolve(__dirname, '..', '..', '..', '.confab');

/** The data directory of a process: CONFAB_DATA_DIR, else .confab in development, else one per deployment. */
export function dataDirOf(e: { CONFAB_DATA_DIR?: string | undefined; NODE_ENV: string }, redisPrefix: string): string {
  return (
    e.CONFAB_DATA_DIR || (e.NODE_ENV === 'development' ? DEV_DATA_DIR : join(tmpdir(), 'confab-data', redisPrefix))
  );
}

export function mailConfig(
  e: {
    CONFAB_SMTP_URL: string;
    CONFAB_EMAIL_FROM: string;
    CONFAB_MAIL_CAPTURE_DIR?: string | undefined;
    NODE_ENV: string;
  },
  dataDir: string,
): MailConfig {
  return {
    smtpUrl: e.CONFAB_SMTP_URL,
    from: e.CONFAB_EMAIL_FROM,
    captureDir: e.CONFAB_MAIL_CAPTURE_DIR ?? (e.NODE_ENV === 'development' ? join(dataDir, 'mail') : ''),
  };
}

/** Whether this configuration sends (or captures) mail at all. */
export const mailConfigured = (config: MailConfig): boolean => config.smtpUrl !== '' || config.captureDir !== '';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`. */
  html?: string;
  /** The display name of the sender address ("Confab notifications"). */
  fromName?: string;
}

export interface Mailer {
  /** False when the server has neither an SMTP server nor a development capture configured. */
  readonly enabled: boolean;
  send(mail: OutgoingMail): Promise<void>;
}

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
    await this.transport.sendMail({
      // A display name of the mail's own replaces the configured one ("Confab <noreply@…>" → its address).
      from: mail.fromName ? { name: mail.fromName, address: /<([^>]+)>/.exec(this.from)?.[1] ?? this.from } : this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html !== undefined ? { html: mail.html } : {}),
    });
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
export async function createMailer(config: MailConfig, logger: Logger): Promise<ClosableMailer> {
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
