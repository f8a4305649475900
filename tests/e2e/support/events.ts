import type { ApiResponse } from '@confab/devkit';
import { serviceToken } from '@confab/devkit';
import { makeEnvelope, type EventContract } from '@confab/events';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Publishes an event on the run's exchange as its owning service would (for facts no endpoint of the system can
 * change, such as organization settings), and by default waits until the given service has handled it.
 */
export async function publishEvent<T>(
  contract: EventContract<T>,
  payload: T,
  realmId: number | null,
  waitFor: string | null = 'messaging',
): Promise<string> {
  const info = system();
  const envelope = makeEnvelope(contract, payload, { realmId });
  const connection = await connect(info.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(info.exchange, 'topic', { durable: true });
    await new Promise<void>((resolve, reject) => {
      channel.publish(
        info.exchange,
        contract.type,
        Buffer.from(JSON.stringify(envelope)),
        { persistent: true, contentType: 'application/json' },
        (err: unknown) =>
          err ? reject(err instanceof Error ? err : new Error('the broker did not confirm the publish')) : resolve(),
      );
    });
    await channel.close();
  } finally {
    await connection.close();
  }
  if (waitFor !== null) {
    const base = info.serviceUrls[waitFor];
    if (!base) throw new Error(`service ${waitFor} is not running`);
    await waitHandled(base, envelope.event_id);
  }
  return envelope.event_id;
}

/** Waits until the service at `baseUrl` has handled event `eventId`. */
export async function waitHandled(baseUrl: string, eventId: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${baseUrl}/internal/events/processed/${eventId}`, {
      headers: { 'x-confab-identity': serviceToken(system()) },
    });
    const body = (await response.json()) as { processed?: boolean };
    if (body.processed) return;
    if (Date.now() > deadline) throw new Error(`${baseUrl} did not handle event ${eventId}`);
    await sleep(25);
  }
}
