import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Queue, Worker } from 'bullmq';
import { contracts, internal, type EventBus } from '@confab/events';
import { registerJobQueueDepth, ServiceClient } from '@confab/http';
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
/** The most of an answer read; a longer one is cut off (a reply is at most 10,000 characters anyway). */
const MAX_ANSWER_BYTES = 1024 * 1024;
const USER_AGENT = 'ZulipOutgoingWebhook/11.0-confab';

/** Socket-level failures Zulip's requests library reports as ConnectionError (refused, reset, DNS, TLS). */
const CONNECTION_ERRORS =
  /^(E(CONN|HOST|NET|PIPE|AI_|NOTFOUND|ADDR)|ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|ERR_STREAM_PREMATURE)/;

/** One POST to a bot's service, classified as Zulip's do_rest_call tells failures apart. Never throws. */
export function postWebhook(req: WebhookRequest, timeoutMs: number): Promise<WebhookOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      resolve({ kind: 'exception', type: 'InvalidURL', message: `Invalid URL '${req.url}'` });
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = Buffer.from(req.body, 'utf8');
    let settled = false;
    const settle = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const call = send(url, {
      method: 'POST',
      headers: {
        'Content-Type': req.contentType,
        'Content-Length': String(body.length),
        'User-Agent': USER_AGENT,
      },
    });
    // However the exchange stalls (connecting, sending, or reading the answer), the timeout ends it.
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      call.destroy();
    }, timeoutMs);
    call.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_ANSWER_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () =>
        settle({
          kind: 'response',
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES),
        }),
      );
      res.on('error', (err) => settle(failure(err)));
    });
    call.on('error', (err) => settle(failure(err)));
    call.end(body);
  });
}

function failure(err: Error): WebhookOutcome {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ETIMEDOUT') return { kind: 'timeout' };
  if (CONNECTION_ERRORS.test(code)) return { kind: 'connection-error' };
  return { kind: 'exception', type: code || err.name, message: err.message };
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
  const ports: OutgoingWebhookPorts = {
    servicesOf: settingsServices(config),
    post: (req) => postWebhook(req, config.outgoingWebhooks.timeoutSeconds * 1000),
    timeoutSeconds: config.outgoingWebhooks.timeoutSeconds,
  };
  const worker = new Worker<OutgoingWebhookJob>(
    OUTGOING_WEBHOOK_QUEUE,
    async (job) => {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const result = await deliverOutgoingWebhook(domain, ports, job.data, { last });
      if (result === 'retry') throw new Error('the bot service could not be reached; trying again');
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
