import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  // A deployment's configuration: outside development the internal secret is required (docs/security.md).
  const base = {
    PUSH_DATABASE_URL: 'postgresql://localhost/push',
    CONFAB_INTERNAL_SECRET: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7',
  };

  it('leaves push unconfigured without a relay URL and documents its defaults', () => {
    const config = loadConfig(base);
    expect(config.relay).toEqual({
      url: '',
      serverId: '',
      serverKey: '',
      timeoutMs: 10_000,
      attempts: 3,
      backoffMs: 500,
    });
    expect({ port: config.port, wait: config.testWaitMs, concurrency: config.workerConcurrency }).toEqual({
      port: 9105,
      wait: 45_000,
      concurrency: 8,
    });
  });

  it('reads the relay settings and drops a trailing slash', () => {
    const config = loadConfig({
      ...base,
      CONFAB_PUSH_RELAY_URL: 'https://relay.example/',
      CONFAB_PUSH_RELAY_SERVER_ID: 'id',
      CONFAB_PUSH_RELAY_SERVER_KEY: 'key',
      PUSH_RELAY_ATTEMPTS: '5',
    });
    expect(config.relay).toMatchObject({ url: 'https://relay.example', serverId: 'id', serverKey: 'key', attempts: 5 });
  });

  it('refuses a relay URL that is not a URL', () => {
    expect(() => loadConfig({ ...base, CONFAB_PUSH_RELAY_URL: 'relay' })).toThrow(/CONFAB_PUSH_RELAY_URL/);
  });
});
