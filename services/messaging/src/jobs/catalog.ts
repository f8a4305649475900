import type { Logger } from '@confab/logging';
import type { MessagingConfig } from '../config.js';
import { deleteUnclaimedUploads } from '../domain/attachments.js';
import type { Domain } from '../domain/context.js';
import type { Store } from '../repositories/store.js';
import { runRealmExport } from './realm-export.js';

/** The maintenance queue's jobs and their data; a job without a handler below does not compile. */
export interface MaintenanceJobs {
  'delete-unclaimed-uploads': Record<string, never>;
  /** An organization export an administrator asked for (POST /export/realm). */
  'realm-export': { exportId: number };
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
  'realm-export': (ctx, data) => runRealmExport(ctx, data.exportId),
};
