import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bool,
  checkedSecret,
  commonConfig,
  commonEnv,
  int,
  parseEnv,
  port,
  readSecret,
  url,
  z,
  type CommonConfig,
} from '@confab/config';

export const Env = z.object({
  ...commonEnv,
  MESSAGING_PORT: port(9102),
  MESSAGING_DATABASE_URL: url(),
  /**
   * Connections in this process's one pool: Prisma's and the plain SQL's (sending and reading messages), of which
   * max(MESSAGING_SEND_LANES, 2) are kept by the group commit once used. Default 16; at least 3 more than those.
   */
  MESSAGING_DB_POOL: int(16, 3, 200),
  /** Group commit: send statements in flight at once, and the most sends one statement carries (1: no sharing). */
  MESSAGING_SEND_LANES: int(1, 1, 100),
  MESSAGING_SEND_BATCH: int(16, 1, 100),
  /** The settings service, for backfilling users and organizations into an empty read model. */
  SETTINGS_URL: url('http://127.0.0.1:9101'),
  /** The groups service (its part of organization exports). */
  GROUPS_URL: url('http://127.0.0.1:9103'),
  /** The address clients reach the gateway at. */
  CONFAB_EXTERNAL_URL: url('http://127.0.0.1:9991'),
  /** How long organization, user and channel facts stay cached in this process, in ms. Default 5000. */
  MESSAGING_CACHE_TTL_MS: int(5000, 0, 600_000),
  /** Directory of the local-disk file store; default: <CONFAB_DATA_DIR>/uploads, else one per deployment under the system temp dir. */
  MESSAGING_UPLOADS_DIR: z.string().default(''),
  /** The one directory every process writes under (the image sets /data, a volume). */
  CONFAB_DATA_DIR: z.string().default(''),
  /** Largest uploaded file, in MiB. Default 25 (Zulip's default max_file_upload_size_mib). */
  MESSAGING_MAX_FILE_UPLOAD_MIB: int(25, 1, 1024),
  /** Unreferenced uploads older than this many weeks are deleted. Default 3. */
  MESSAGING_UNCLAIMED_UPLOAD_WEEKS: int(3, 0, 520),
  /** How often the worker looks for unreferenced uploads, in seconds. Default 3600. */
  MESSAGING_UPLOAD_CLEANUP_INTERVAL_SECONDS: int(3600, 1),
  /** When the daily retention job runs (a cron pattern, UTC). Default 02:00. */
  MESSAGING_RETENTION_CRON: z.string().min(1).default('0 2 * * *'),
  /** Days an archived batch can be restored before it is purged (Zulip's ARCHIVED_DATA_VACUUMING_DELAY_DAYS). Default 30. */
  MESSAGING_ARCHIVE_VACUUM_DAYS: int(30, 0, 3650),
  /** Scheduled messages delivered at the same time by one worker process. Default 16. */
  MESSAGING_SCHEDULED_CONCURRENCY: int(16, 1, 256),
  /** How often the worker re-enqueues pending scheduled messages missing from Redis, in seconds. Default 30. */
  MESSAGING_SCHEDULED_SWEEP_SECONDS: int(30, 1),
  /**
   * How long a delivery job's lock lasts without renewal, in ms; a worker that died mid-job has its jobs taken over
   * after about this long (BullMQ's lockDuration and stalledInterval). Default 30000.
   */
  MESSAGING_SCHEDULED_LOCK_MS: int(30_000, 1000),
  /** How long an outgoing webhook's service may take to answer, in seconds (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS). Default 10. */
  MESSAGING_OUTGOING_WEBHOOK_TIMEOUT_SECONDS: int(10, 1, 300),
  /** Outgoing webhook requests one worker process makes at the same time. Default 8. */
  MESSAGING_OUTGOING_WEBHOOK_CONCURRENCY: int(8, 1, 256),
  /**
   * Of those, how many may go to one bot's service at once, so that one slow service cannot hold every slot while
   * other bots wait; a bot's further deliveries wait their turn. Default 2.
   */
  MESSAGING_OUTGOING_WEBHOOK_PER_BOT_CONCURRENCY: int(2, 1, 256),
  /** Wait before the first retry of an unreachable outgoing webhook service, in ms; doubled for each further one. Default 1000. */
  MESSAGING_OUTGOING_WEBHOOK_RETRY_MS: int(1000, 0, 600_000),
  /**
   * Key signing temporary upload URLs (GET /user_uploads/{realm_id}/{filename}), its own, not the internal secret:
   * required outside development, like it (checkedSecret). In development and tests it is derived from the internal
   * secret. `_FILE`: a file holding it. Changing it ends the temporary URLs handed out in the last minute.
   */
  CONFAB_UPLOAD_URL_KEY: z.string().optional(),
  CONFAB_UPLOAD_URL_KEY_FILE: z.string().optional(),
  /**
   * Key of the external image proxy's URLs (`/external_content/<digest>/<url>`, Zulip's CAMO_KEY). Default: derived
   * from CONFAB_UPLOAD_URL_KEY; when set, checked like it (checkedSecret). Changing it breaks the external images of
   * messages rendered before. `_FILE`: a file holding it.
   */
  CONFAB_CAMO_KEY: z.string().optional(),
  CONFAB_CAMO_KEY_FILE: z.string().optional(),
  /** Largest image the external image proxy passes on, in MiB. Default 25. */
  MESSAGING_EXTERNAL_CONTENT_MAX_MIB: int(25, 1, 1024),
  /** How long the external image proxy waits for an image, in seconds. Default 10. */
  MESSAGING_EXTERNAL_CONTENT_TIMEOUT_SECONDS: int(10, 1, 300),
  /** How long fetching one page for a link preview may take, in seconds (Zulip's 15). */
  MESSAGING_LINK_PREVIEW_TIMEOUT_SECONDS: int(15, 1, 300),
  /** The most of a page read for its preview, in KiB (its head is what counts). Default 1024. */
  MESSAGING_LINK_PREVIEW_MAX_KIB: int(1024, 16, 65_536),
  /** How long a URL's preview (or that it has none) is kept in Redis, in seconds. Default 86400 (a day). */
  MESSAGING_LINK_PREVIEW_CACHE_SECONDS: int(86_400, 1),
  /** Messages whose links one worker process fetches at the same time. Default 4. */
  MESSAGING_LINK_PREVIEW_CONCURRENCY: int(4, 1, 256),
  /** Test-only switch: lets tests age uploads. Default off. */
  CONFAB_DEV_ENDPOINTS: bool(false),
});

export interface MessagingConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number; sendLanes: number; sendBatch: number };
  settingsUrl: string;
  groupsUrl: string;
  externalUrl: string;
  cacheTtlMs: number;
  uploads: {
    dir: string;
    maxFileBytes: number;
    unclaimedWeeks: number;
    cleanupIntervalSeconds: number;
    /** Signs temporary upload URLs. */
    urlKey: string;
  };
  retention: { cron: string; vacuumDays: number };
  devEndpoints: boolean;
  scheduled: { concurrency: number; sweepSeconds: number; lockMs: number };
  outgoingWebhooks: { timeoutSeconds: number; concurrency: number; perBotConcurrency: number; retryDelayMs: number };
  /** The external image proxy (docs/security.md, "The external image proxy"). */
  imageProxy: { key: string; maxBytes: number; timeoutMs: number };
  /** Link previews, fetched by the worker (docs/architecture.md, "Link previews"). */
  linkPreviews: { timeoutMs: number; maxBytes: number; cacheSeconds: number; concurrency: number };
}

/** The pool's connections the group commit keeps once used: one per send lane, at least two (see buildDomain). */
export const keptConnections = (db: { sendLanes: number }) => Math.max(db.sendLanes, 2);

/**
 * The worker's pool: at least the job concurrency + 2 connections (18 by default, the size the scheduled-lateness
 * bench ran with) beside the group commit's kept ones (a drain's batch transactions, PARALLEL_BATCHES, each holding
 * one): room for the reads of the rows they check, which wait for a connection beyond that.
 */
export const workerPoolSize = (db: { poolSize: number; sendLanes: number }, scheduledConcurrency: number) =>
  Math.max(db.poolSize, scheduledConcurrency + 2 + keptConnections(db));

export function loadConfig(env: Record<string, string | undefined> = process.env): MessagingConfig {
  const e = parseEnv(Env, env);
  const common = commonConfig(e);
  const uploadUrlKey = checkedSecret(
    'CONFAB_UPLOAD_URL_KEY',
    readSecret('CONFAB_UPLOAD_URL_KEY', e.CONFAB_UPLOAD_URL_KEY, e.CONFAB_UPLOAD_URL_KEY_FILE),
    e.NODE_ENV,
    createHmac('sha256', common.internalSecret).update('confab-upload-url-key').digest('hex'),
  );
  const camoKey = readSecret('CONFAB_CAMO_KEY', e.CONFAB_CAMO_KEY, e.CONFAB_CAMO_KEY_FILE);
  return {
    ...common,
    port: e.MESSAGING_PORT,
    db: {
      url: e.MESSAGING_DATABASE_URL,
      poolSize: e.MESSAGING_DB_POOL,
      sendLanes: e.MESSAGING_SEND_LANES,
      sendBatch: e.MESSAGING_SEND_BATCH,
    },
    settingsUrl: e.SETTINGS_URL.replace(/\/+$/, ''),
    groupsUrl: e.GROUPS_URL.replace(/\/+$/, ''),
    externalUrl: e.CONFAB_EXTERNAL_URL.replace(/\/+$/, ''),
    cacheTtlMs: e.MESSAGING_CACHE_TTL_MS,
    uploads: {
      dir:
        e.MESSAGING_UPLOADS_DIR ||
        (e.CONFAB_DATA_DIR
          ? join(e.CONFAB_DATA_DIR, 'uploads')
          : join(tmpdir(), 'confab-uploads', common.redis.prefix)),
      maxFileBytes: e.MESSAGING_MAX_FILE_UPLOAD_MIB * 1024 * 1024,
      unclaimedWeeks: e.MESSAGING_UNCLAIMED_UPLOAD_WEEKS,
      cleanupIntervalSeconds: e.MESSAGING_UPLOAD_CLEANUP_INTERVAL_SECONDS,
      urlKey: uploadUrlKey,
    },
    retention: { cron: e.MESSAGING_RETENTION_CRON, vacuumDays: e.MESSAGING_ARCHIVE_VACUUM_DAYS },
    devEndpoints: e.CONFAB_DEV_ENDPOINTS,
    scheduled: {
      concurrency: e.MESSAGING_SCHEDULED_CONCURRENCY,
      sweepSeconds: e.MESSAGING_SCHEDULED_SWEEP_SECONDS,
      lockMs: e.MESSAGING_SCHEDULED_LOCK_MS,
    },
    outgoingWebhooks: {
      timeoutSeconds: e.MESSAGING_OUTGOING_WEBHOOK_TIMEOUT_SECONDS,
      concurrency: e.MESSAGING_OUTGOING_WEBHOOK_CONCURRENCY,
      perBotConcurrency: e.MESSAGING_OUTGOING_WEBHOOK_PER_BOT_CONCURRENCY,
      retryDelayMs: e.MESSAGING_OUTGOING_WEBHOOK_RETRY_MS,
    },
    imageProxy: {
      key:
        camoKey === undefined
          ? createHmac('sha256', uploadUrlKey).update('confab-camo-key').digest('hex')
          : checkedSecret('CONFAB_CAMO_KEY', camoKey, e.NODE_ENV, camoKey),
      maxBytes: e.MESSAGING_EXTERNAL_CONTENT_MAX_MIB * 1024 * 1024,
      timeoutMs: e.MESSAGING_EXTERNAL_CONTENT_TIMEOUT_SECONDS * 1000,
    },
    linkPreviews: {
      timeoutMs: e.MESSAGING_LINK_PREVIEW_TIMEOUT_SECONDS * 1000,
      maxBytes: e.MESSAGING_LINK_PREVIEW_MAX_KIB * 1024,
      cacheSeconds: e.MESSAGING_LINK_PREVIEW_CACHE_SECONDS,
      concurrency: e.MESSAGING_LINK_PREVIEW_CONCURRENCY,
    },
  };
}
