import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';

const MEETING_KEY = '9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc';
const base = {
  SETTINGS_DATABASE_URL: 'postgresql://localhost/settings',
  CONFAB_INTERNAL_SECRET: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7',
  CONFAB_MEETING_TOKEN_KEY: MEETING_KEY,
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

describe('the key sealing meeting provider tokens (CONFAB_MEETING_TOKEN_KEY)', () => {
  const production = { ...base, NODE_ENV: 'production', CONFAB_MEETING_TOKEN_KEY: undefined };

  it('is required outside development, with a message saying how to make one', () => {
    expect(() => loadConfig(production)).toThrow(/CONFAB_MEETING_TOKEN_KEY is not set, and NODE_ENV=production/);
    expect(() => loadConfig(production)).toThrow(/openssl rand -hex 32/);
  });

  it('refuses the development default and a short key outside development', () => {
    expect(() =>
      loadConfig({ ...production, CONFAB_MEETING_TOKEN_KEY: 'confab-dev-meeting-token-key-change-me' }),
    ).toThrow(/CONFAB_MEETING_TOKEN_KEY is a published default or placeholder/);
    expect(() => loadConfig({ ...production, CONFAB_MEETING_TOKEN_KEY: 'short-but-16-chars!' })).toThrow(
      /CONFAB_MEETING_TOKEN_KEY is too short \(19 characters; NODE_ENV=production needs at least 32\)/,
    );
  });

  it('is taken as given, or from the file CONFAB_MEETING_TOKEN_KEY_FILE names', () => {
    expect(loadConfig({ ...production, CONFAB_MEETING_TOKEN_KEY: MEETING_KEY }).meetings.tokenKey).toBe(MEETING_KEY);
    const file = join(mkdtempSync(join(tmpdir(), 'confab-settings-')), 'meeting_token_key');
    writeFileSync(file, `${MEETING_KEY}\n`);
    expect(loadConfig({ ...production, CONFAB_MEETING_TOKEN_KEY_FILE: file }).meetings.tokenKey).toBe(MEETING_KEY);
  });

  it('falls back to a development key in development and tests only', () => {
    const development = loadConfig({ ...base, NODE_ENV: 'development', CONFAB_MEETING_TOKEN_KEY: undefined });
    expect(development.meetings.tokenKey.length).toBeGreaterThanOrEqual(16);
  });
});
