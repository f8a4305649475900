import {
  createWorld,
  startRabbitCluster,
  type RabbitCluster,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { expectDeliveredOnce, MessageQueue, sendBurst } from './burst';
import { eventually, readiness, startFaultStack } from './stack';

interface QueueRow {
  name: string;
  type: string;
  consumers: number;
  messages: number;
}

describe('a node of a three-node RabbitMQ cluster stopped during a send burst (quorum queues)', () => {
  let cluster: RabbitCluster;
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  /** The run's durable queues (each consumer's and its dead-letter queue), as the cluster reports them. */
  const durableQueues = async (): Promise<QueueRow[]> => {
    const out = await cluster.ctl([
      'list_queues',
      '-q',
      '--formatter',
      'json',
      'name',
      'type',
      'leader',
      'consumers',
      'messages',
    ]);
    return (JSON.parse(out) as QueueRow[]).filter((q) => q.name.startsWith(`${info.exchange}.`));
  };
  const everyServiceReady = async () => {
    const states = await Promise.all(Object.values(info.serviceUrls).map((url) => readiness(url)));
    return states.every((s) => s.status === 200);
  };

  beforeAll(async () => {
    cluster = await startRabbitCluster();
    ({ stack, info } = await startFaultStack({ amqpUrl: cluster.url }, { CONFAB_EVENTS_QUEUE_TYPE: 'quorum' }));
    world = await createWorld(info);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: true }).catch(() => undefined);
    await cluster?.destroy();
  });

  it('loses and duplicates nothing, and every consumer recovers', async () => {
    // Every consumer's queue is a quorum queue, replicated on the three nodes.
    const queues = await durableQueues();
    expect(queues.length).toBeGreaterThan(0);
    expect(queues.filter((q) => q.type !== 'quorum')).toEqual([]);

    const queue = await MessageQueue.register(world.as('hamlet'));
    const burst = sendBurst(world);
    await eventually(
      async () => burst.sent.length,
      (n) => n >= 40,
      30_000,
    );
    // Stop the node where most of the run's queues are (a quorum queue's leader, a classic queue's home).
    const local = await Promise.all(
      cluster.nodes.map(async (node) => {
        const rows = JSON.parse(await node.ctl(['list_queues', '-q', '--local', '--formatter', 'json', 'name']));
        return (rows as { name: string }[]).filter((q) => q.name.startsWith(`${info.exchange}.`)).length;
      }),
    );
    const victim = cluster.nodes[local.indexOf(Math.max(...local))]!;
    await victim.stop();
    const atStop = burst.sent.length;

    // Without it, sends go on, every service's consumers reconnect (readiness checks the broker) and events flow.
    await eventually(
      async () => burst.sent.length,
      (n) => n >= atStop + 40,
      60_000,
    );
    await eventually(everyServiceReady, Boolean, 60_000);
    await queue.drainUntil(new Set(burst.sent).size);

    // The node comes back and rejoins; the burst goes on a little, then stops.
    await victim.start();
    const atRestart = burst.sent.length;
    await eventually(
      async () => burst.sent.length,
      (n) => n >= atRestart + 20,
      60_000,
    );
    await burst.stop();
    expect(burst.failed).toEqual([]);
    await expectDeliveredOnce(world, queue, burst.sent);

    // Every queue is served again and emptied by its consumers.
    await eventually(
      durableQueues,
      (rows) =>
        rows.length === queues.length &&
        rows.every((q) => q.messages === 0 && (q.name.endsWith('.dlq') || q.consumers > 0)),
      60_000,
    );
  }, 400_000);
});
