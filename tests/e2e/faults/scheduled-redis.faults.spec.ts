import {
  ApiClient,
  createWorld,
  privateRedis,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { eventually, sleep, startFaultStack } from './stack';

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
  let client: ApiClient;
  let verona: number;

  beforeAll(async () => {
    redis = await privateRedis();
    ({ stack, info } = await startFaultStack({ redisUrl: redis.url }, { MESSAGING_SCHEDULED_SWEEP_SECONDS: '2' }));
    world = await createWorld(info);
    const hamlet = world.user('hamlet');
    client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    verona = (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  }, 180_000);

  afterAll(async () => {
    // Drops the run's databases (on the shared PostgreSQL) and its exchanges; then the private Redis goes.
    await stack?.stop({ cleanUp: true });
    await redis?.destroy();
  });

  async function scheduleAll(tag: string, due: number, count: number): Promise<string[]> {
    const contents = Array.from({ length: count }, (_, i) => `${tag} ${i}`);
    const statuses = await Promise.all(
      contents.map(async (content) => {
        const response = await client.post('/scheduled_messages', {
          type: 'stream',
          to: String(verona),
          topic: tag,
          content,
          scheduled_delivery_timestamp: due,
        });
        return response.status;
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    return contents;
  }

  async function deliveredCounts(tag: string): Promise<Map<string, number>> {
    const response = await client.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      apply_markdown: false,
      narrow: [
        { operator: 'channel', operand: verona },
        { operator: 'topic', operand: tag },
      ],
    });
    if (response.status !== 200) return new Map();
    const counts = new Map<string, number>();
    for (const m of response.body.messages as { content: string }[])
      counts.set(m.content, (counts.get(m.content) ?? 0) + 1);
    return counts;
  }

  async function expectEachOnce(tag: string, contents: string[]): Promise<void> {
    await eventually(
      () => deliveredCounts(tag),
      (c) => c.size === contents.length,
      60_000,
    );
    await sleep(2000);
    const final = await deliveredCounts(tag);
    expect(contents.filter((c) => final.get(c) !== 1)).toEqual([]);
    expect([...final.values()].reduce((a, b) => a + b, 0)).toBe(contents.length);
    const pending = await client.get('/scheduled_messages');
    expect(pending.body.scheduled_messages).toEqual([]);
  }

  it('delivers messages that fell due while Redis was down, once each, from the database', async () => {
    const contents = await scheduleAll('redis down', Math.floor(Date.now() / 1000) + 4, 20);
    await redis.stop();
    await sleep(7000);
    await redis.start();
    await expectEachOnce('redis down', contents);
  }, 120_000);

  it('delivers messages whose jobs Redis lost in a restart before they were due', async () => {
    const contents = await scheduleAll('redis lost', Math.floor(Date.now() / 1000) + 8, 20);
    await redis.restart();
    await expectEachOnce('redis lost', contents);
  }, 120_000);
});
