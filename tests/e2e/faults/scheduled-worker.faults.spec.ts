import { ApiClient, createWorld, type Stack, type StackInfo, type World } from '@confab/devkit';
import { eventually, sleep, startFaultStack } from './stack';

/**
 * Scheduled delivery survives the messaging worker being killed (SIGKILL) before messages are due and while it is
 * delivering them: every scheduled message reaches GET /messages exactly once.
 */
describe('the messaging worker killed around scheduled deliveries', () => {
  let stack: Stack;
  let info: StackInfo;
  let world: World;
  let client: ApiClient;
  let verona: number;

  beforeAll(async () => {
    // A short lock lets jobs of a killed worker be taken over within seconds instead of BullMQ's 30.
    ({ stack, info } = await startFaultStack({}, { MESSAGING_SCHEDULED_LOCK_MS: '3000' }));
    world = await createWorld(info);
    const hamlet = world.user('hamlet');
    client = new ApiClient(info.gatewayUrl, { host: world.host }).withCredentials(hamlet.email, hamlet.apiKey);
    verona = (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: true });
  });

  const worker = () => stack.processes.get('messaging-worker')!;

  async function scheduleAll(tag: string, dueAt: (i: number) => number, count: number): Promise<string[]> {
    const contents = Array.from({ length: count }, (_, i) => `${tag} ${i}`);
    // In parallel batches, so that all are scheduled well before the first is due.
    for (let start = 0; start < count; start += 25) {
      const statuses = await Promise.all(
        contents.slice(start, start + 25).map(async (content, j) => {
          const response = await client.post('/scheduled_messages', {
            type: 'stream',
            to: String(verona),
            topic: tag,
            content,
            scheduled_delivery_timestamp: dueAt(start + j),
          });
          return response.status;
        }),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    return contents;
  }

  /** How many times each content appears in the topic, read through GET /messages. */
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
    expect(response.status).toBe(200);
    const counts = new Map<string, number>();
    for (const m of response.body.messages as { content: string }[])
      counts.set(m.content, (counts.get(m.content) ?? 0) + 1);
    return counts;
  }

  async function pending(): Promise<number> {
    const response = await client.get('/scheduled_messages');
    expect(response.status).toBe(200);
    return (response.body.scheduled_messages as unknown[]).length;
  }

  it('delivers messages that fell due while the worker was dead, once each, after it restarts', async () => {
    const now = Math.floor(Date.now() / 1000);
    const contents = await scheduleAll('while dead', (i) => now + 4 + (i % 4), 20);
    await worker().kill();
    await sleep(9000);
    // Nobody delivers while the worker is down.
    expect((await deliveredCounts('while dead')).size).toBe(0);
    worker().start();
    const counts = await eventually(
      () => deliveredCounts('while dead'),
      (c) => c.size === contents.length,
      60_000,
    );
    await sleep(2000);
    const final = await deliveredCounts('while dead');
    expect(contents.map((c) => [c, final.get(c) ?? 0])).toEqual(contents.map((c) => [c, 1]));
    expect(counts.size).toBe(contents.length);
    expect(await pending()).toBe(0);
  }, 120_000);

  it('delivers each message exactly once when the worker is killed in the middle of delivering them', async () => {
    const due = Math.floor(Date.now() / 1000) + 8;
    const contents = await scheduleAll('mid delivery', () => due, 150);
    // Kill it as soon as the first deliveries land, twice.
    for (let round = 0; round < 2; round += 1) {
      const before = (await deliveredCounts('mid delivery')).size;
      await eventually(
        async () => (await deliveredCounts('mid delivery')).size,
        (n) => n > before || n === contents.length,
        60_000,
      );
      await worker().kill();
      await sleep(1000);
      worker().start();
    }
    await eventually(
      () => deliveredCounts('mid delivery'),
      (c) => c.size === contents.length,
      90_000,
    );
    await sleep(2000);
    const final = await deliveredCounts('mid delivery');
    expect(contents.filter((c) => final.get(c) !== 1)).toEqual([]);
    expect([...final.values()].reduce((a, b) => a + b, 0)).toBe(contents.length);
    expect(await pending()).toBe(0);
  }, 180_000);
});
