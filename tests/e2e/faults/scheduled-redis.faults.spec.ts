import {
  ApiClient,
  createWorld,
  privateRedis,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { LEAD_SECONDS, ScheduledProbe, untilPast } from './scheduled';
import { startFaultStack } from './stack';

/**
 * Scheduled delivery survives Redis restarting empty (this private Redis keeps no data across a restart): the
 * database is the source of truth, and the worker gives pending rows their lost jobs back, so each message is
 * still delivered, exactly once.
 */
describe('Redis restarted (and emptied) around scheduled deliveries', () => {
  let redis: PrivateServer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;
  let probe: ScheduledProbe;

  beforeAll(async () => {
    redis = await privateRedis();
    ({ stack, info } = await startFaultStack({ redisUrl: redis.url }, { MESSAGING_SCHEDULED_SWEEP_SECONDS: '2' }));
    world = await createWorld(info);
    const hamlet = world.user('hamlet');
    const client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    probe = new ScheduledProbe(client, (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id);
  }, 180_000);

  afterAll(async () => {
    // Drops the run's databases (on the shared PostgreSQL) and its exchanges; then the private Redis goes.
    await stack?.stop({ cleanUp: true });
    await redis?.destroy();
  });

  it('delivers messages that fell due while Redis was down, once each, from the database', async () => {
    const due = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    const contents = await probe.scheduleAll('redis down', () => due, 20);
    await redis.stop();
    await untilPast(due, 3000);
    await redis.start();
    await probe.expectEachOnce('redis down', contents);
  }, 120_000);

  it('delivers messages whose jobs Redis lost in a restart before they were due', async () => {
    const due = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    const contents = await probe.scheduleAll('redis lost', () => due, 20);
    await redis.restart();
    await probe.expectEachOnce('redis lost', contents);
  }, 120_000);
});
