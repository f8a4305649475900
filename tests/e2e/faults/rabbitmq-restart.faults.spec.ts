import {
  createWorld,
  privateRabbitMQ,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { expectDeliveredOnce, MessageQueue, sendBurst } from './burst';
import { eventually, readiness, sleep, startFaultStack } from './stack';

describe('RabbitMQ restarted during a send burst', () => {
  let rabbit: PrivateServer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  beforeAll(async () => {
    rabbit = await privateRabbitMQ();
    ({ stack, info } = await startFaultStack({ amqpUrl: rabbit.url }));
    world = await createWorld(info);
  }, 240_000);

  afterAll(async () => {
    // Its databases live on the shared PostgreSQL: drop them (the broker is private and goes with its data).
    await stack?.stop({ cleanUp: true }).catch(() => undefined);
    await rabbit?.destroy();
  });

  it('loses no committed message and delivers each one to the event queue exactly once', async () => {
    const queue = await MessageQueue.register(world.as('hamlet'));
    const burst = sendBurst(world);

    // Restart the broker once the burst is flowing, and keep sending while it is down and after it is back.
    await eventually(
      async () => burst.sent.length,
      (n) => n >= 40,
      30_000,
    );
    await rabbit.stop();
    const duringOutage = burst.sent.length;
    // The services notice: messaging reports its broker connection down (so the outage is real)...
    const down = await eventually(
      () => readiness(info.serviceUrls.messaging!),
      (r) => r.checks.broker === false,
      15_000,
    );
    expect(down.status).toBe(503);
    await sleep(2000);
    // ...while sends go on being accepted, their events waiting in the outbox.
    expect(burst.sent.length).toBeGreaterThan(duringOutage);
    await rabbit.start();
    await eventually(
      () => readiness(info.serviceUrls.messaging!),
      (r) => r.status === 200,
      60_000,
    );
    await sleep(2000);
    await burst.stop();

    // Sending never depended on the broker: every request succeeded, including those made while it was down.
    expect(burst.failed).toEqual([]);
    // Each message reached the event queue once and is stored once, readable in the conversation.
    await expectDeliveredOnce(world, queue, burst.sent);
  }, 240_000);
});
