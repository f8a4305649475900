import { createHash } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { contracts, type EventBus } from '@confab/events';
import { GuardedHttpClient, OutgoingRequestError, registerJobQueueDepth } from '@confab/http';
import type { Logger } from '@confab/logging';
import { bullOptions, type RedisClient } from '@confab/runtime';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { applyLinkPreviews, type LinkPreviewJob, type LinkPreviewPorts } from '../domain/link-previews.js';
import type { LinkEmbed } from '../domain/render.js';
import { isHtml, parseLinkPreview } from '../rendering/link-preview-parser.js';

/**
 * The link previews of the messaging worker (docs/architecture.md, "Link previews"): a consumer of
 * `link_previews.requested` (published only by messages whose links are to be previewed) adds a job of the
 * `link-previews` queue; the job fetches each page through the guarded client (or takes it from the Redis cache of
 * previews by URL), renders the message again and publishes the rendering-only update.
 */
export const LINK_PREVIEW_QUEUE = 'link-previews';
export const LINK_PREVIEW_CONSUMER = 'messaging.link_previews';

/** Zulip's ZULIP_URL_PREVIEW_USER_AGENT, with this server's name. */
const USER_AGENT = 'Mozilla/5.0 (compatible; ConfabURLPreview; +https://github.com/confab)';

/** A URL's preview in Redis: JSON of its data, or `null` for a page with nothing to show. */
export function previewCacheKey(prefix: string, url: string): string {
  return `${prefix}:link_preview:${createHash('sha256').update(url).digest('hex')}`;
}

/**
 * One page's preview (Zulip's get_link_embed_data without oEmbed): a GET through the guarded client (redirects
 * followed, each checked), only a successful HTML answer is read (up to the size cap) and parsed. Null for anything
 * else, a refused address included (the refusal is logged).
 */
export async function fetchLinkPreview(
  client: GuardedHttpClient,
  url: string,
  limits: { timeoutMs: number; maxBytes: number },
  logger: Logger,
): Promise<LinkEmbed | null> {
  let stream;
  try {
    stream = await client.open(url, {
      headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml' },
      timeoutMs: limits.timeoutMs,
      connectTimeoutMs: Math.min(limits.timeoutMs, 5000),
      maxBytes: limits.maxBytes,
      maxRedirects: 5,
    });
  } catch (err) {
    if (!(err instanceof OutgoingRequestError)) throw err;
    logger.info({ kind: err.kind, err: err.message }, 'link preview: page not fetched');
    return null;
  }
  const contentType = stream.headers['content-type'];
  if (stream.status < 200 || stream.status >= 300) {
    stream.body.destroy();
    return null;
  }
  // The head of a page is what a preview reads: a page larger than the cap is parsed as far as it was read.
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (chunks.length === 1 && !isHtml(contentType, chunk)) break;
    }
  } catch (err) {
    if (!(err instanceof OutgoingRequestError) || (err.kind !== 'too-large' && err.kind !== 'timeout')) {
      logger.info({ err: (err as Error).message }, 'link preview: page not read');
      return null;
    }
  } finally {
    stream.body.destroy();
  }
  const body = Buffer.concat(chunks, size);
  if (!isHtml(contentType, body)) return null;
  return parseLinkPreview(body, contentType, stream.url);
}

/** The ports of the job: the preview of a URL from the cache, else fetched and cached (failures too, for less long). */
function previewPorts(config: MessagingConfig, redis: RedisClient, logger: Logger): LinkPreviewPorts {
  const client = new GuardedHttpClient({ allowedCidrs: config.outgoingAllowedCidrs });
  const { cacheSeconds } = config.linkPreviews;
  return {
    async embedData(url) {
      const key = previewCacheKey(config.redis.prefix, url);
      const cached = await redis.get(key);
      if (cached !== null) return JSON.parse(cached) as LinkEmbed | null;
      const data = await fetchLinkPreview(client, url, config.linkPreviews, logger);
      const ttl = data === null ? Math.min(cacheSeconds, 3600) : cacheSeconds;
      await redis.set(key, JSON.stringify(data), 'EX', ttl);
      return data;
    },
  };
}

/** Registers the consumer on the worker's bus (before the bus starts) and starts the queue's worker. */
export function startLinkPreviews(ctx: {
  domain: Domain;
  bus: EventBus;
  config: MessagingConfig;
  redis: RedisClient;
  logger: Logger;
}) {
  const { domain, bus, config, logger } = ctx;
  const bull = bullOptions(config.redis);
  const queue = new Queue<LinkPreviewJob>(LINK_PREVIEW_QUEUE, bull);
  queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'link preview queue error'));
  registerJobQueueDepth(queue);
  bus.consumer(LINK_PREVIEW_CONSUMER).on(contracts.linkPreviewsRequested, async (event) => {
    // The job id is the event's, so an event delivered twice adds one job (completed jobs are kept an hour for that).
    await queue.add('preview', event.payload, {
      jobId: event.event_id,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  });
  const ports = previewPorts(config, ctx.redis, logger);
  const worker = new Worker<LinkPreviewJob>(
    LINK_PREVIEW_QUEUE,
    async (job) => {
      const outcome = await applyLinkPreviews(domain, ports, job.data);
      logger.info({ messageId: job.data.message_id, urls: job.data.urls.length, outcome }, 'link previews');
    },
    { ...bull, concurrency: config.linkPreviews.concurrency },
  );
  worker.on('failed', (job, err) =>
    logger.warn({ err: err.message, messageId: job?.data.message_id }, 'link preview job failed'),
  );
  worker.on('error', (err) => logger.warn({ err: err.message }, 'link preview worker error'));
  logger.info({ queue: LINK_PREVIEW_QUEUE }, 'link previews started');
  return {
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
