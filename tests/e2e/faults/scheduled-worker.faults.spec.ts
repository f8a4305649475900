import { ApiClient, createWorld, type Stack, type StackInfo, type World } from '@confab/devkit';
import { LEAD_SECONDS, ScheduledProbe, untilPast } from './scheduled';
import { eventually, sleep, startFaultStack } from './stack';

/**
 * Scheduled delivery survives the messaging worker being killed (SIGKILL) before messages are due and while it is
 * delivering them: every scheduled message reaches GET /messages exactly once.
 */
describe('the messaging worker killed around scheduled deliveries', () => {
  let stack: Stack;
  let info: StackInfo;
  let world: World;
  let probe: ScheduledProbe;

  beforeAll(async () => {
    // A short lock lets jobs of a killed worker be taken over within seconds instead of BullMQ's 30.
    ({ stack, info } = await startFaultStack({}, { MESSAGING_SCHEDULED_LOCK_MS: '3000' }));
    world = await createWorld(info);
    const hamlet = world.user('hamlet');
    const client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    probe = new ScheduledProbe(client, (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: true });
  });

  const worker = () => stack.processes.get('messaging-worker')!;

  it('delivers messages that fell due while the worker was dead, once each, after it restarts', async () => {
    const first = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    const contents = await probe.scheduleAll('while dead', (i) => first + (i % 4), 20);
    await worker().kill();
    // Every message falls due while the worker is dead, and nobody delivers them.
    await untilPast(first + 3, 2000);
    expect((await probe.deliveredCounts('while dead')).size).toBe(0);
    worker().start();
    await probe.expectEachOnce('while dead', contents);
  }, 120_000);

  it('delivers each message exactly once when the worker is killed in the middle of delivering them', async () => {
    // Far enough ahead that all 150 are scheduled before it on a busy machine (a time already past is refused).
    const due = Math.floor(Date.now() / 1000) + 30;
    const contents = await probe.scheduleAll('mid delivery', () => due, 150);
    // Kill it as soon as the first deliveries land, twice.
    for (let round = 0; round < 2; round += 1) {
      const before = (await probe.deliveredCounts('mid delivery')).size;
      await eventually(
        async () => (await probe.deliveredCounts('mid delivery')).size,
        (n) => n > before || n === contents.length,
        60_000,
      );
      await worker().kill();
      await sleep(1000);
      worker().start();
    }
    await probe.expectEachOnce('mid delivery', contents, 90_000);
  }, 180_000);
});
