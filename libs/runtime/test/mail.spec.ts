import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@confab/logging';
import { createMailer } from '../src/mail';

const logger = createLogger({ name: 'test', level: 'silent' });
const config = { from: 'Confab <noreply@example.test>', linkValiditySeconds: 60 };

describe('createMailer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'confab-mail-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('without an SMTP server, sends over SMTP to the capture server, which writes .eml files', async () => {
    const mailer = await createMailer({ ...config, smtpUrl: '', captureDir: dir }, logger);
    try {
      expect(mailer.enabled).toBe(true);
      await mailer.send({
        to: 'ophelia@example.test',
        subject: 'Hello there',
        text: 'A line.\nhttp://localhost/accounts/confirm_new_email/abc',
      });
    } finally {
      await mailer.close();
    }
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = readFileSync(join(dir, files[0]!), 'utf8');
    expect(raw).toMatch(/^To: ophelia@example\.test$/m);
    expect(raw).toMatch(/^From: Confab <noreply@example\.test>$/m);
    expect(raw).toMatch(/^Subject: Hello there$/m);
    expect(raw).toContain('http://localhost/accounts/confirm_new_email/abc');
  });

  it('is disabled when neither an SMTP server nor a capture directory is configured', async () => {
    const mailer = await createMailer({ ...config, smtpUrl: '', captureDir: '' }, logger);
    expect(mailer.enabled).toBe(false);
    await expect(mailer.send({ to: 'a@example.test', subject: 's', text: 't' })).rejects.toThrow('not configured');
  });
});
