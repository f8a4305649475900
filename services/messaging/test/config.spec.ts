import { join } from 'node:path';
import { loadConfig } from '../src/config';

const base = { MESSAGING_DATABASE_URL: 'postgresql://localhost/messaging', NODE_ENV: 'test' };
const INTERNAL = 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7';

describe('where messaging writes uploads', () => {
  it('under CONFAB_DATA_DIR when it is set (the image sets /data), unless MESSAGING_UPLOADS_DIR says otherwise', () => {
    expect(loadConfig({ ...base, CONFAB_DATA_DIR: '/data' }).uploads.dir).toBe(join('/data', 'uploads'));
    expect(loadConfig({ ...base, CONFAB_DATA_DIR: '/data', MESSAGING_UPLOADS_DIR: '/srv/uploads' }).uploads.dir).toBe(
      '/srv/uploads',
    );
  });

  it('never under the application directory by default', () => {
    expect(loadConfig(base).uploads.dir.startsWith(join(__dirname, '..'))).toBe(false);
  });
});

describe('the key of temporary upload URLs', () => {
  const production = { ...base, NODE_ENV: 'production', CONFAB_INTERNAL_SECRET: INTERNAL };

  it('is a key of its own, required outside development', () => {
    expect(() => loadConfig(production)).toThrow(/CONFAB_UPLOAD_URL_KEY is not set/);
    const key = 'f0e1d2c3b4a5968778695a4b3c2d1e0f1234';
    const config = loadConfig({ ...production, CONFAB_UPLOAD_URL_KEY: key });
    expect(config.uploads.urlKey).toBe(key);
    expect(config.internalSecret).toBe(INTERNAL);
  });

  it('is derived from, and differs from, the internal secret in development and tests', () => {
    const config = loadConfig({ ...base, CONFAB_INTERNAL_SECRET: INTERNAL });
    expect(config.uploads.urlKey).toMatch(/^[0-9a-f]{64}$/);
    expect(config.uploads.urlKey).not.toBe(INTERNAL);
  });
});
