import { fetchApiKeyForDevelopment } from '../src/domain/auth';
import type { Database } from '../src/domain/store';

describe('POST /dev_fetch_api_key outside development', () => {
  it("answers Zulip's error for a server without its development login, before looking anyone up", async () => {
    const untouchable = new Proxy({} as Database, {
      get() {
        throw new Error('the database must not be read');
      },
    });
    await expect(fetchApiKeyForDevelopment(untouchable, null, 'iago@zulip.com', false)).rejects.toMatchObject({
      message: 'DevAuthBackend not enabled.',
      code: 'BAD_REQUEST',
      status: 400,
    });
  });
});
