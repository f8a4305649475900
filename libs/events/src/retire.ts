import { connect } from 'amqplib';
import { queueNameOf } from './bus.js';
import { deadLetterQueueOf } from './topology.js';

/**
 * Deletes the queues (and dead-letter queues) of consumers a service no longer has, after an upgrade retired them: a
 * durable queue without a consumer would otherwise keep every event bound to it (with CONFAB_EVENTS_QUEUE_EXPIRES_MS
 * 0, forever). Idempotent.
 */
export async function retireConsumers(
  amqp: { url: string; exchange: string },
  names: readonly string[],
): Promise<void> {
  const connection = await connect(amqp.url);
  try {
    const channel = await connection.createChannel();
    for (const name of names) {
      const queue = queueNameOf(amqp.exchange, name);
      await channel.deleteQueue(queue);
      await channel.deleteQueue(deadLetterQueueOf(queue));
    }
    await channel.close();
  } finally {
    await connection.close();
  }
}
