import { ApiClient, createWorld, type Stack, type StackInfo, type World } from '@confab/devkit';
import { eventually, readiness, startFaultStack } from './stack';

describe('a service killed mid-request', () => {
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  beforeAll(async () => {
    ({ stack, info } = await startFaultStack({}));
    world = await createWorld(info);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: true });
  });

  it('gets clean 502/503 envelopes from the gateway, never a hang, and service again after a restart', async () => {
    const hamlet = world.user('hamlet');
    const client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    const outcomes: { status: number; code?: string }[] = [];
    let running = true;
    const loops = Array.from({ length: 16 }, async () => {
      while (running) {
        const started = Date.now();
        const response = await client.get('/users/me');
        outcomes.push({ status: response.status, code: response.body.code as string | undefined });
        // No request may hang: each one ends well within the gateway's own time limits.
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    });
    // Kill it once requests are flowing (on a busy machine the first ones take a while).
    await eventually(
      async () => outcomes.filter((o) => o.status === 200).length,
      (n) => n >= 16,
      20_000,
    );
    await stack.processes.get('settings')!.kill();
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(loops);

    const failures = outcomes.filter((o) => o.status !== 200);
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect([502, 503]).toContain(failure.status);
      expect(['BAD_GATEWAY', 'SERVICE_UNAVAILABLE']).toContain(failure.code);
    }

    const down = await client.get('/users/me');
    expect({ status: down.status, code: down.body.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(down.headers['retry-after']).toBe('1');

    await stack.restart('settings');
    await eventually(
      () => readiness(info.serviceUrls.settings!),
      (r) => r.status === 200,
      30_000,
    );
    expect((await client.get('/users/me')).status).toBe(200);
  }, 120_000);
});
