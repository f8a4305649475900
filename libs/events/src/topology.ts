import type { Channel, Replies } from 'amqplib';

/**
 * The type of a consumer's durable queue and its dead-letter queue: `quorum` replicates them across the nodes of a
 * RabbitMQ cluster, so a node that stops loses no event the broker confirmed to the publisher (it confirms once a
 * majority of the nodes has it), and consumers go on from the remaining nodes; `classic` (the default, for
 * development) keeps each on one node. Per-process queues are always classic (exclusive queues cannot be quorum
 * queues). A queue keeps the type it was declared with: an existing deployment switches by retiring its queues once
 * (docs/architecture.md, "RabbitMQ").
 */
export type QueueType = 'classic' | 'quorum';

export const deadLetterQueueOf = (queue: string): string => `${queue}.dlq`;

/**
 * Declares the exchanges and a consumer's queue: the durable queue `name` with its dead-letter queue, or, for `null`,
 * an exclusive queue of this process that disappears with it.
 */
export async function declareQueue(
  channel: Channel,
  options: {
    exchange: string;
    queueType?: QueueType | undefined;
    queueExpiresMs?: number | undefined;
    /** RabbitMQ's single active consumer (ConsumerOptions.ordered); a queue keeps what it was declared with. */
    singleActive?: boolean | undefined;
  },
  name: string | null,
): Promise<Replies.AssertQueue> {
  await channel.assertExchange(options.exchange, 'topic', { durable: true });
  if (name === null) return channel.assertQueue('', { durable: false, exclusive: true, autoDelete: true });
  const dlx = `${options.exchange}.dlx`;
  // Classic queues are declared as they always were (without the argument), so existing ones stay equivalent.
  const durable: Record<string, unknown> = options.queueType === 'quorum' ? { 'x-queue-type': 'quorum' } : {};
  if (options.queueExpiresMs) durable['x-expires'] = options.queueExpiresMs;
  await channel.assertExchange(dlx, 'direct', { durable: true });
  await channel.assertQueue(deadLetterQueueOf(name), { durable: true, arguments: durable });
  await channel.bindQueue(deadLetterQueueOf(name), dlx, name);
  return channel.assertQueue(name, {
    durable: true,
    arguments: {
      ...durable,
      'x-dead-letter-exchange': dlx,
      'x-dead-letter-routing-key': name,
      ...(options.singleActive ? { 'x-single-active-consumer': true } : {}),
    },
  });
}
