import { connectAny } from './amqp-nodes.js';
import type { Logger } from '@confab/logging';
import { queueNameOf } from './bus.js';
import { deadLetterQueueOf } from './topology.js';

/**
 * Deletes the queues of consumers a service no longer has, after an upgrade retired them: a durable queue without a
 * consumer would otherwise keep every event bound to it (with CONFAB_EVENTS_QUEUE_EXPIRES_MS 0, forever). A queue
 * goes only once it is empty and nobody consumes it: during a rolling upgrade the earlier version's replicas are
 * still draining it, and deleting it then would lose their backlog (and a consumer that lost its queue declares it
 * again). A dead-letter queue goes when it is empty; one holding failed events stays for an operator to read.
 * Idempotent. Answers the names whose queues are still in use.
 */
export async function retireConsumers(
  amqp: { url: string; exchange: string },
  names: readonly string[],
): Promise<string[]> {
  const connection = await connectAny(amqp.url);
  const inUse: string[] = [];
  // A refused delete closes its channel, so each queue gets a channel of its own.
  const deleteIfIdle = async (queue: string): Promise<boolean> => {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      await channel.deleteQueue(queue, { ifEmpty: true, ifUnused: true });
      await channel.close();
      return true;
    } catch {
      return false;
    }
  };
  try {
    for (const name of names) {
      const queue = queueNameOf(amqp.exchange, name);
      if (!(await deleteIfIdle(queue))) {
        inUse.push(name);
        continue;
      }
      await deleteIfIdle(deadLetterQueueOf(queue));
    }
  } finally {
    await connection.close();
  }
  return inUse;
}

/**
 * `retireConsumers` in the background of a starting process, again every `everyMs` for the queues still in use until
 * they are gone (the earlier version's replicas stop during the rollout, having drained them). A broker not yet
 * reachable holds nothing up either.
 */
export function retireConsumersInBackground(
  amqp: { url: string; exchange: string },
  names: readonly string[],
  logger: Logger,
  everyMs = 60_000,
): void {
  if (names.length === 0) return;
  const attempt = (left: readonly string[]) => {
    retireConsumers(amqp, left)
      .then((inUse) => {
        if (inUse.length < left.length)
          logger.info({ retired: left.filter((n) => !inUse.includes(n)) }, "retired consumers' queues deleted");
        if (inUse.length > 0) setTimeout(() => attempt(inUse), everyMs).unref();
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'could not delete the queues of retired consumers; trying again later');
        setTimeout(() => attempt(left), everyMs).unref();
      });
  };
  attempt(names);
}
