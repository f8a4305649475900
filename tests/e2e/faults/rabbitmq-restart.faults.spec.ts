import {
  createWorld,
  privateRabbitMQ,
  type ApiClient,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { eventually, readiness, sleep, startFaultStack } from './stack';

/** A registered queue, read without blocking; collects the message ids of its `message` events, duplicates kept. */
class MessageQueue {
  readonly ids: number[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly queueId: string,
    private lastEventId: number,
  ) {}

  /** One GET /events; true when it returned events. */
  async poll(): Promise<boolean> {
    const response = await this.client.get('/events', {
      queue_id: this.queueId,
      last_event_id: this.lastEventId,
      dont_block: true,
    });
    expect({ status: response.status, result: response.body.result }).toEqual({ status: 200, result: 'success' });
    const events = response.body.events as { id: number; type: string; message?: { id: number } }[];
    for (const event of events) {
      this.lastEventId = Math.max(this.lastEventId, event.id);
      if (event.type === 'message') this.ids.push(event.message!.id);
    }
    return events.length > 0;
  }

  /** Polls until `count` distinct messages have arrived (90 s at most). */
  async drainUntil(count: number): Promise<void> {
    const deadline = Date.now() + 90_000;
    while (new Set(this.ids).size < count) {
      if (Date.now() > deadline) throw new Error(`queue still short after 90 s: ${this.ids.length} message events`);
      if (!(await this.poll())) await sleep(200);
    }
  }
}

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
    const hamlet = world.as('hamlet');
    const registration = await hamlet.post('/register', { event_types: ['message'] });
    expect(registration.status).toBe(200);
    const queueId = registration.body.queue_id as string;

    const sent: number[] = [];
    const failed: { status: number; body: unknown }[] = [];
    let sending = true;
    const iago = world.as('iago');
    const senders = Array.from({ length: 4 }, async (_, worker) => {
      for (let n = 0; sending; n++) {
        const response = await iago.post('/messages', {
          type: 'direct',
          to: JSON.stringify([world.user('hamlet').id]),
          content: `burst ${worker}-${n}`,
        });
        if (response.status === 200) sent.push(response.body.id as number);
        else failed.push({ status: response.status, body: response.body });
      }
    });

    // Restart the broker once the burst is flowing, and keep sending while it is down and after it is back.
    await eventually(
      async () => sent.length,
      (n) => n >= 40,
      30_000,
    );
    await rabbit.stop();
    const duringOutage = sent.length;
    // The services notice: messaging reports its broker connection down (so the outage is real)...
    const down = await eventually(
      () => readiness(info.serviceUrls.messaging!),
      (r) => r.checks.broker === false,
      15_000,
    );
    expect(down.status).toBe(503);
    await sleep(2000);
    // ...while sends go on being accepted, their events waiting in the outbox.
    expect(sent.length).toBeGreaterThan(duringOutage);
    await rabbit.start();
    await eventually(
      () => readiness(info.serviceUrls.messaging!),
      (r) => r.status === 200,
      60_000,
    );
    await sleep(2000);
    sending = false;
    await Promise.all(senders);

    // Sending never depended on the broker: every request succeeded, including those made while it was down.
    expect(failed).toEqual([]);

    const expected = new Set(sent);
    const queue = new MessageQueue(hamlet, queueId, registration.body.last_event_id as number);
    await queue.drainUntil(expected.size);
    // Let any late duplicate arrive, then read the queue once more before counting.
    await sleep(3000);
    while (await queue.poll());
    const received = queue.ids;
    expect([...new Set(received)].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    expect(received.length).toBe(expected.size);

    // And each message is stored once, readable in the conversation.
    const history = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 5000,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'dm', operand: [world.user('iago').id] }]),
    });
    expect(history.status).toBe(200);
    const stored = (history.body.messages as { id: number; content: string }[]).filter((m) =>
      m.content.includes('burst '),
    );
    expect(stored.map((m) => m.id).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
  }, 240_000);
});
