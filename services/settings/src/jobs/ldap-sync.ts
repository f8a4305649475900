import { Queue, Worker } from 'bullmq';
import type { Logger } from '@confab/logging';
import { bullOptions } from '@confab/runtime';
import type { SettingsDeps } from '../deps.js';
import { syncDirectory, type SyncReport } from '../domain/sso/ldap-login.js';
import { ssoProvisioning } from '../sso-wiring.js';

export const LDAP_SYNC_QUEUE = 'settings-ldap-sync';

/** One pass of the directory sync (Zulip's sync_ldap_user_data), as the job and `cli.js sync-ldap` run it. */
export async function runLdapSync(
  deps: Pick<SettingsDeps, 'db' | 'config' | 'presence' | 'sso' | 'images' | 'resizer'>,
  logger: Logger,
  only?: { realmId: number },
): Promise<SyncReport | null> {
  const ldap = deps.config.sso.ldap;
  if (!ldap || !deps.sso) return null;
  const report = await syncDirectory(
    {
      ...ssoProvisioning(deps, 'ldap-sync'),
      presence: deps.presence,
      images: deps.images,
      resizer: deps.resizer,
      logger,
    },
    deps.config.sso,
    ldap,
    deps.sso.directory,
    only,
  );
  logger.info(report, 'LDAP sync done');
  return report;
}

/**
 * The repeatable sync on BullMQ: one scheduler entry whatever the number of replicas, each run taken by one of them.
 * Started only with LDAP configured and CONFAB_LDAP_SYNC_INTERVAL_SECONDS above 0.
 */
export async function startLdapSync(deps: SettingsDeps, logger: Logger): Promise<Array<[string, () => Promise<void>]>> {
  const ldap = deps.config.sso.ldap;
  if (!ldap || ldap.syncIntervalSeconds === 0) return [];
  const bull = bullOptions(deps.config.redis);
  const queue = new Queue(LDAP_SYNC_QUEUE, bull);
  queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'LDAP sync queue error'));
  await queue.upsertJobScheduler(
    'ldap-sync',
    { every: ldap.syncIntervalSeconds * 1000 },
    { name: 'ldap-sync', data: {}, opts: { removeOnComplete: 10, removeOnFail: 10 } },
  );
  const worker = new Worker(LDAP_SYNC_QUEUE, async () => runLdapSync(deps, logger), { ...bull, concurrency: 1 });
  worker.on('failed', (_job, err) => logger.warn({ err: err.message }, 'LDAP sync failed'));
  worker.on('error', (err) => logger.warn({ err: err.message }, 'LDAP sync worker error'));
  return [
    ['ldap sync worker', () => worker.close()],
    ['ldap sync queue', () => queue.close()],
  ];
}
