import { DelayedError, Queue, Worker } from 'bullmq';
import { contracts, internal, type EventBus } from '@confab/events';
import { GuardedHttpClient, OutgoingRequestError, registerJobQueueDepth, ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import { bullOptions } from '@confab/runtime';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import {
  deliverOutgoingWebhook,
  type OutgoingWebhookJob,
  type OutgoingWebhookPorts,
  type WebhookOutcome,
  type WebhookRequest,
} from '../domain/outgoing-webhooks.js';

/**
 * The deliverer of outgoing webhooks (docs/architecture.md, "Outgoing webhooks"), in the messaging worker: a consumer
 * of `outgoing_webhook.triggered` (published only by messages that trigger such a bot) turns each triggered bot into
 * a job of the `outgoing-webhooks` queue; the job posts to the bot's service and posts the answer back.
 */
export const OUTGOING_WEBHOOK_QUEUE = 'outgoing-webhooks';
export const OUTGOING_WEBHOOK_CONSUMER = 'messaging.outgoing_webhooks';

/** Zulip's MAX_REQUEST_RETRIES (3) after the first attempt. */
const ATTEMPTS = 4;
/** The most of an answer read; the connection is closed there (a reply is at most 10,000 characters anyway). */
export const MAX_ANSWER_BYTES = 1024 * 1024;
const USER_AGENT = 'ZulipOutgoingWebhook/11.0-confab';
/** How long a delivery waits for its turn when its bot already has as many in flight as it may. */
const BUSY_BOT_DELAY_MS = 250;

/**
 * One POST to a bot's service through the guarded client (docs/security.md, "Requests to URLs users choose"),
 * classified as Zulip's do_rest_call tells failures apart; an address the client refuses is `refused` (what Zulip's
 * Smokescreen answers with 407). Redirects are not followed (Zulip's requests.post follows them through Smokescreen;
 * a bot service has no reason to redirect, and an unfollowed 3xx is told to the owner as its status). Never throws.
 */
export async function postWebhook(
  client: GuardedHttpClient,
  req: WebhookRequest,
  timeoutMs: number,
): Promise<WebhookOutcome> {
  try {
    const answer = await client.fetch(req.url, {
      method: 'POST',
      headers: { 'Content-Type': req.contentType, 'User-Agent': USER_AGENT },
      body: req.body,
      timeoutMs,
      connectTimeoutMs: Math.min(timeoutMs, 5000),
      maxBytes: MAX_ANSWER_BYTES,
    });
    return { kind: 'response', status: answer.status, body: answer.body };
  } catch (err) {
    if (!(err instanceof OutgoingRequestError)) {
      return { kind: 'exception', type: (err as Error).name, message: (err as Error).message };
    }
    switch (err.kind) {
      case 'refused':
        return { kind: 'refused', reason: err.message };
      case 'timeout':
        return { kind: 'timeout' };
      case 'connection':
        return { kind: 'connection-error' };
      case 'invalid-url':
        // A URL of another scheme (Zulip accepts ftp:// at creation): what Python's requests says of it.
        return /^[a-z][a-z0-9+.-]*:\/\//i.test(req.url) && !/^https?:/i.test(req.url)
          ? { kind: 'exception', type: 'InvalidSchema', message: `No connection adapters were found for '${req.url}'` }
          : { kind: 'exception', type: 'InvalidURL', message: err.message };
      default:
        return { kind: 'exception', type: err.code ?? err.kind, message: err.message };
    }
  }
}

/** The settings service's answer: where the bot's messages go (read at each delivery, so edits apply at once). */
function settingsServices(config: MessagingConfig): OutgoingWebhookPorts['servicesOf'] {
  const settings = new ServiceClient({
    caller: 'messaging',
    baseUrl: config.settingsUrl,
    secret: config.internalSecret,
  });
  return async (botId) => {
    const answer = await settings.call('GET', `/bots/${botId}/services`, internal.botServices);
    return answer.services.map((s) => ({ name: s.name, baseUrl: s.base_url, interface: s.interface, token: s.token }));
  };
}

/**
 * Registers the consumer on the worker's bus (before the bus starts) and starts the queue's worker. A job's id is the
 * event's and the bot's, so an event delivered twice adds one job (completed jobs are kept a day for that).
 */
export function startOutgoingWebhooks(ctx: { domain: Domain; bus: EventBus; config: MessagingConfig; logger: Logger }) {
  const { domain, bus, config, logger } = ctx;
  const bull = bullOptions(config.redis);
  const queue = new Queue<OutgoingWebhookJob>(OUTGOING_WEBHOOK_QUEUE, bull);
  queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'outgoing webhook queue error'));
  registerJobQueueDepth(queue);
  bus.consumer(OUTGOING_WEBHOOK_CONSUMER).on(contracts.outgoingWebhookTriggered, async (event) => {
    const { message, bots } = event.payload;
    await queue.addBulk(
      bots.map((bot) => ({
        name: 'deliver',
        data: { botId: bot.user_id, trigger: bot.trigger, message },
        opts: {
          jobId: `${event.event_id}-${bot.user_id}`,
          attempts: ATTEMPTS,
          backoff: { type: 'exponential', delay: config.outgoingWebhooks.retryDelayMs },
          removeOnComplete: { age: 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })),
    );
  });
  const client = new GuardedHttpClient({ allowedCidrs: config.outgoingAllowedCidrs });
  const ports: OutgoingWebhookPorts = {
    servicesOf: settingsServices(config),
    post: (req) => postWebhook(client, req, config.outgoingWebhooks.timeoutSeconds * 1000),
    timeoutSeconds: config.outgoingWebhooks.timeoutSeconds,
  };
  // Deliveries in flight in this process, per bot: one bot's slow service may hold only its share of the slots. A
  // delivery over its bot's share goes back to the queue for a moment (a delay, not an attempt), freeing its slot.
  const inFlight = new Map<number, number>();
  const perBot = config.outgoingWebhooks.perBotConcurrency;
  const worker = new Worker<OutgoingWebhookJob>(
    OUTGOING_WEBHOOK_QUEUE,
    async (job, token) => {
      const botId = job.data.botId;
      const running = inFlight.get(botId) ?? 0;
      if (running >= perBot) {
        await job.moveToDelayed(Date.now() + BUSY_BOT_DELAY_MS, token);
        throw new DelayedError();
      }
      inFlight.set(botId, running + 1);
      try {
        const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        const result = await deliverOutgoingWebhook(domain, ports, job.data, { last });
        if (result === 'retry') throw new Error('the bot service could not be reached; trying again');
      } finally {
        const left = (inFlight.get(botId) ?? 1) - 1;
        if (left > 0) inFlight.set(botId, left);
        else inFlight.delete(botId);
      }
    },
    { ...bull, concurrency: config.outgoingWebhooks.concurrency },
  );
  worker.on('failed', (job, err) =>
    logger.info(
      { err: err.message, botId: job?.data.botId, attempt: job?.attemptsMade },
      'outgoing webhook attempt failed',
    ),
  );
  worker.on('error', (err) => logger.warn({ err: err.message }, 'outgoing webhook worker error'));
  logger.info({ queue: OUTGOING_WEBHOOK_QUEUE }, 'outgoing webhook delivery started');
  return {
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
