import type { ApiResponse } from '@confab/devkit';
import { connect, type ChannelModel } from 'amqplib';
import { system } from './system';

/** A parsed JSON object, as the API client types response bodies. */
type JsonObject = ApiResponse['body'];

export interface TappedEvent {
  event_id: string;
  type: string;
  realm_id: number | null;
  payload: JsonObject;
}

/**
 * Listens to the system's event exchange (a private queue bound to the routing keys), so a test can check what a
 * service published, as the other services will receive it.
 */
export class EventTap {
  readonly events: TappedEvent[] = [];

  private constructor(private readonly connection: ChannelModel) {}

  static async open(routingKeys: readonly string[]): Promise<EventTap> {
    const connection = await connect(system().amqpUrl);
    const tap = new EventTap(connection);
    const channel = await connection.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    for (const key of routingKeys) await channel.bindQueue(queue, system().exchange, key);
    await channel.consume(queue, (message) => {
      if (!message) return;
      tap.events.push(JSON.parse(message.content.toString()) as TappedEvent);
      channel.ack(message);
    });
    return tap;
  }

  /** The first event (already received or arriving within `timeoutMs`) that matches. */
  async next(match: (event: TappedEvent) => boolean, timeoutMs = 10_000): Promise<TappedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching event within ${timeoutMs} ms; received ${JSON.stringify(this.events.map((e) => e.type))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Events matching `match` that arrive within `ms` (to show that something was not published). */
  async collect(match: (event: TappedEvent) => boolean, ms: number): Promise<TappedEvent[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.events.filter(match);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
