import { join } from 'node:path';
import { loadConfig } from '../src/config';

const base = { MESSAGING_DATABASE_URL: 'postgresql://localhost/messaging' };

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
