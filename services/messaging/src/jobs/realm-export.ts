import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { tarGzDirectory, writeZulipExport, type ExportData, type ExportGroupValue } from '@confab/porting';
import { messagingExportPart } from '../operations/export-part.js';
import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { Queue } from 'bullmq';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { exportsEvent } from '../domain/realm-exports.js';
import type { ExportRunner } from '../domain/realm-content-store.js';
import type { Store } from '../repositories/store.js';

/** Where export archives live: `<uploads dir>/exports/<realm id>/<random>/<name>.tar.gz`. */
export const exportsDir = (config: MessagingConfig) => join(config.uploads.dir, 'exports');

/** The API process's side: the worker's maintenance queue takes the job; archives are removed from the data dir. */
export function exportRunner(queue: Pick<Queue, 'add'>, config: MessagingConfig): ExportRunner {
  return {
    async enqueue(exportId) {
      await queue.add('realm-export', { exportId }, { jobId: `realm-export-${exportId}`, removeOnComplete: 100 });
    },
    async remove(path) {
      await rm(join(exportsDir(config), dirname(path)), { recursive: true, force: true });
    },
  };
}

interface ExportJobContext {
  domain: Domain;
  store: Store;
  config: MessagingConfig;
  logger: Logger;
}

/** Every page of an internal listing, in id order. */
async function allPages<T>(page: (afterId: number) => Promise<T[]>, idOf: (item: T) => number): Promise<T[]> {
  const out: T[] = [];
  for (let after = 0; ;) {
    const items = await page(after);
    out.push(...items);
    if (items.length === 0) return out;
    after = idOf(items[items.length - 1]!);
  }
}

/** The settings service's part of an export (GET /internal/realms/{id}/export), read as it is written there. */
const settingsPart = internal.anyObject;

/**
 * The export job (Zulip's export_realm): gathers the organization's data from each service that owns a part of it,
 * through their own typed internal APIs (settings: the organization, its users, their settings, avatars and emoji;
 * groups: its user groups with their members), and messaging's own (channels, subscriptions, messages and their
 * per-user rows, reactions, uploads, topic visibility, linkifiers), and writes them in Zulip's export format
 * (libs/porting writeZulipExport) as a .tar.gz in the data directory, telling the administrators (realm_export
 * events). The export types keep Zulip's meaning: a public export has the messages of public channels and no
 * private data; a standard one (Zulip's "full with consent") adds the private data of the members who allow it.
 */
export async function runRealmExport(ctx: ExportJobContext, exportId: number): Promise<void> {
  const { domain, config } = ctx;
  const row = await domain.exports.byId(exportId);
  if (!row || row.dateSucceeded || row.dateFailed || row.dateDeleted) return;
  const realm = await domain.directory.realm(row.realmId);
  if (!realm) return;
  const finish = (patch: { dateSucceeded?: Date; dateFailed?: Date; exportPath?: string }) =>
    domain.db.write(realm.id, async ({ exports }) => {
      await exports.update(exportId, patch);
      return {
        result: undefined,
        events: [exportsEvent(realm.id, realm.url, await exports.list(realm.id), `export-${exportId}`)],
      };
    });
  try {
    const path = `${realm.id}/${randomBytes(12).toString('hex')}/zulip-export-${randomBytes(4).toString('hex')}.tar.gz`;
    const target = join(exportsDir(config), path);
    await mkdir(dirname(target), { recursive: true });
    const stats = await writeRealmExport(ctx, realm.id, row.exportType, target);
    await finish({ dateSucceeded: new Date(), exportPath: path });
    ctx.logger.info({ exportId, messages: stats.messages }, 'organization exported');
  } catch (err) {
    ctx.logger.error({ err, exportId }, 'organization export failed');
    await finish({ dateFailed: new Date() });
  }
}

/** Writes an organization's export in Zulip's format to `target` (a .tar.gz); also `npm run admin -- export`. */
export async function writeRealmExport(
  ctx: Pick<ExportJobContext, 'store' | 'config'>,
  realmId: number,
  exportType: number,
  target: string,
  options: { migrationStatus?: unknown } = {},
): Promise<{ messages: number }> {
  const { store, config } = ctx;
  const client = (baseUrl: string) =>
    new ServiceClient({ caller: 'messaging', baseUrl, secret: config.internalSecret });
  const settings = (await client(config.settingsUrl).call('GET', `/realms/${realmId}/export`, settingsPart, {
    query: { export_type: exportType },
  })) as unknown as Pick<ExportData, 'realm' | 'users' | 'profileFields' | 'emoji'>;
  const groups = (
    await allPages(
      async (after) =>
        (
          await client(config.groupsUrl).call('GET', '/groups', internal.groupsWithMembersPage, {
            query: { after_id: after },
          })
        ).groups,
      (g) => g.group.group_id,
    )
  ).filter((g) => g.group.realm_id === realmId);
  const part = await messagingExportPart(store, realmId, exportType, settings.users);
  const data: ExportData = {
    exportType: exportType as ExportData['exportType'],
    ...settings,
    groups: groups.map(({ group, direct_members, direct_subgroups }) => ({
      id: group.group_id,
      name: group.name,
      description: group.description,
      isSystemGroup: group.is_system_group,
      deactivated: group.deactivated,
      creatorId: group.creator_id,
      dateCreated: new Date(group.date_created).getTime() / 1000,
      members: direct_members,
      subgroups: direct_subgroups,
      settings: Object.fromEntries(Object.entries(group).filter(([k]) => /^can_.*_group$/.test(k))) as Record<
        string,
        ExportGroupValue
      >,
    })),
    ...part,
    attachments: part.attachments.map((a) => ({
      ...a,
      data: () => readFile(join(config.uploads.dir, a.pathId)),
    })),
  };
  const staging = await mkdtemp(join(tmpdir(), 'confab-export-'));
  try {
    const top = basename(target).replace(/\.tar\.gz$/, '');
    const stats = await writeZulipExport(join(staging, top), data, options);
    await tarGzDirectory(join(staging, top), top, target);
    return stats;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
