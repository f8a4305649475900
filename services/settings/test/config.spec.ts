import { join } from 'node:path';
import { loadConfig } from '../src/config';

const base = {
  SETTINGS_DATABASE_URL: 'postgresql://localhost/settings',
  CONFAB_INTERNAL_SECRET: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7',
};

describe('where settings writes files', () => {
  it('keeps custom emoji and, in development, captured mail under CONFAB_DATA_DIR', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development', CONFAB_DATA_DIR: '/data' });
    expect(config.emojiDir).toBe(join('/data', 'emoji'));
    expect(config.mail.captureDir).toBe(join('/data', 'mail'));
  });

  it('captures no mail outside development unless told where', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production', CONFAB_DATA_DIR: '/data' }).mail.captureDir).toBe('');
    expect(loadConfig({ ...base, NODE_ENV: 'production', CONFAB_MAIL_CAPTURE_DIR: '/srv/mail' }).mail.captureDir).toBe(
      '/srv/mail',
    );
  });

  it('defaults to <repository>/.confab in development, where the README says mail goes', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development' });
    expect(config.mail.captureDir).toBe(join(__dirname, '..', '..', '..', '.confab', 'mail'));
  });
});
