import type { ApiClient, World } from '@confab/devkit';
import { sleep } from './stack';

/** A registered queue, read without blocking; collects the message ids of its `message` events, duplicates kept. */
export class MessageQueue {
  readonly ids: number[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly queueId: string,
    private lastEventId: number,
  ) {}

  /** Registers `client` for message events. */
  static async register(client: ApiClient): Promise<MessageQueue> {
    const registration = await client.post('/register', { event_types: ['message'] });
    expect(registration.status).toBe(200);
    return new MessageQueue(client, registration.body.queue_id as string, registration.body.last_event_id as number);
  }

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

/** Direct messages from iago to hamlet, sent by four concurrent senders until `stop`; what each request answered. */
export function sendBurst(world: World): {
  sent: number[];
  failed: { status: number; body: unknown }[];
  stop(): Promise<void>;
} {
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
  return {
    sent,
    failed,
    async stop() {
      sending = false;
      await Promise.all(senders);
    },
  };
}

/** Every sent message reached hamlet's queue exactly once and is stored once in the conversation. */
export async function expectDeliveredOnce(world: World, queue: MessageQueue, sent: readonly number[]): Promise<void> {
  const expected = [...new Set(sent)].sort((a, b) => a - b);
  await queue.drainUntil(expected.length);
  // Let any late duplicate arrive, then read the queue once more before counting.
  await sleep(3000);
  while (await queue.poll());
  expect([...new Set(queue.ids)].sort((a, b) => a - b)).toEqual(expected);
  expect(queue.ids.length).toBe(expected.length);

  const history = await world.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 5000,
    num_after: 0,
    narrow: JSON.stringify([{ operator: 'dm', operand: [world.user('iago').id] }]),
  });
  expect(history.status).toBe(200);
  const stored = (history.body.messages as { id: number; content: string }[]).filter((m) =>
    m.content.includes('burst '),
  );
  expect(stored.map((m) => m.id).sort((a, b) => a - b)).toEqual(expected);
}
