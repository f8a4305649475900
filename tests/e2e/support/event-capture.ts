import { connect, type ChannelModel } from 'amqplib';
import { system } from './system';

export interface CapturedEvent {
  type: string;
  realm_id: number | null;
  payload: Record<string, any>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Captures still listening; closed after each test file even when a test failed before stopping its own. */
const open = new Set<EventCapture>();
afterAll(async () => {
  for (const capture of [...open]) await capture.stop();
});

/**
 * Listens on the run's event exchange (as the events service will), so tests can check what a request announced.
 * Events of other organizations are filtered out by realm id.
 */
export class EventCapture {
  readonly events: CapturedEvent[] = [];
  private connection: ChannelModel | undefined;

  static async start(routingKeys: string[], realmId: number): Promise<EventCapture> {
    const capture = new EventCapture();
    const connection = await connect(system().amqpUrl);
    capture.connection = connection;
    open.add(capture);
    const channel = await connection.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    for (const key of routingKeys) await channel.bindQueue(queue, system().exchange, key);
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        const envelope = JSON.parse(msg.content.toString('utf8')) as CapturedEvent;
        if (envelope.realm_id === realmId) capture.events.push(envelope);
      },
      { noAck: true },
    );
    return capture;
  }

  /** Waits for the first event of this type whose payload matches. */
  async next(
    type: string,
    match: (payload: Record<string, any>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find((e) => e.type === type && match(e.payload));
      if (found) return found.payload;
      if (Date.now() > deadline)
        throw new Error(`no ${type} event arrived; saw ${this.events.map((e) => e.type).join(', ')}`);
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    if (!open.delete(this)) return;
    await this.connection?.close().catch(() => undefined);
  }
}
