import type { Logger } from '@confab/logging';
import type { MessagingConfig } from '../config.js';
import { deleteUnclaimedUploads } from '../domain/attachments.js';
import type { Domain } from '../domain/context.js';
import { SENT_LOCAL_ID_MINUTES } from '../domain/message-store.js';
import { archiveMessages } from '../domain/retention.js';
import type { Store } from '../repositories/store.js';
import { runRealmExport } from './realm-export.js';

/** The maintenance queue's jobs and their data; a job without a handler below does not compile. */
export interface MaintenanceJobs {
  'delete-unclaimed-uploads': Record<string, never>;
  /** Client ids of sends older than SENT_LOCAL_ID_MINUTES (a retry after that is a new message). */
  'forget-sent-local-ids': Record<string, never>;
  /** An organization export an administrator asked for (POST /export/realm). */
  'realm-export': { exportId: number };
  /** The daily retention run: expired messages to the archive, old archive purged (Zulip's archive_messages). */
  'archive-messages': Record<string, never>;
}
export type MaintenanceJobName = keyof MaintenanceJobs;

export const MAINTENANCE_QUEUE = 'messaging-maintenance';

export interface JobContext {
  domain: Domain;
  store: Store;
  config: MessagingConfig;
  logger: Logger;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export const maintenanceHandlers: {
  [K in MaintenanceJobName]: (ctx: JobContext, data: MaintenanceJobs[K]) => Promise<unknown>;
} = {
  /** Uploads that no message claimed within the configured weeks are deleted (Zulip's delete_old_unclaimed_attachments). */
  async 'delete-unclaimed-uploads'({ domain, config, logger }) {
    const cutoff = new Date(Date.now() - config.uploads.unclaimedWeeks * WEEK_MS);
    const deleted = await deleteUnclaimedUploads(domain, cutoff);
    if (deleted > 0) logger.info({ deleted }, 'unclaimed uploads deleted');
    return { deleted };
  },
  async 'forget-sent-local-ids'({ domain }) {
    return { deleted: await domain.messages.forgetSentLocalIds(new Date(Date.now() - SENT_LOCAL_ID_MINUTES * 60_000)) };
  },
  'realm-export': (ctx, data) => runRealmExport(ctx, data.exportId),
  'archive-messages': ({ domain, config }) =>
    archiveMessages(domain, new Date(), { vacuumDays: config.retention.vacuumDays }),
};
