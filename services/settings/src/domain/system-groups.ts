import type { contracts } from '@confab/events';
import type { Logger } from '@confab/logging';
import type { GroupDirectory } from './ports.js';
import type { Database } from './store.js';

/**
 * The groups service's system groups (`role:members` → group id), kept so that /register can give group-valued
 * organization settings as group ids, as clients expect. Saving is idempotent, so redeliveries change nothing.
 */
export async function recordGroup(db: Database, group: contracts.GroupRecord): Promise<void> {
  if (!group.is_system_group) return;
  await db.store.systemGroups.save(group.realm_id, group.name, group.group_id);
}

/** Fills an empty copy from the groups service (this service's database is new beside existing organizations). */
export async function backfillSystemGroups(db: Database, groups: GroupDirectory, logger: Logger): Promise<void> {
  if (!(await db.store.systemGroups.isEmpty())) return;
  let after = 0;
  for (;;) {
    const page = await groups.groupsAfter(after);
    if (page.length === 0) break;
    for (const group of page) await recordGroup(db, group);
    after = page[page.length - 1]!.group_id;
  }
  logger.info({ after }, 'system groups backfilled from the groups service');
}
