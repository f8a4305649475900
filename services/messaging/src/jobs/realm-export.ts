import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { Queue } from 'bullmq';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { EXPORT_PUBLIC, exportsEvent, type ExportRunner } from '../domain/realm-exports.js';
import { linkifierDict } from '../domain/linkifiers.js';
import { playgroundDict } from '../domain/playgrounds.js';
import { folderDict } from '../domain/channel-folders.js';
import type { Store } from '../repositories/store.js';
import { tarGz } from './tar.js';

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

/**
 * The export job (Zulip's export_realm): gathers the organization's data from each service that owns a part of it,
 * through their own typed internal APIs (settings: the organization and its users; groups: its user groups), and
 * messaging's own (channels, subscriptions, messages, organization content), writes them as JSON files in a .tar.gz
 * in the data directory, and tells the administrators (realm_export events). A public export has the messages of
 * public channels; a standard one also those sent by members who allow exporting their private data.
 */
export async function runRealmExport(ctx: ExportJobContext, exportId: number): Promise<void> {
  const { domain, store, config } = ctx;
  const row = await domain.exports.byId(exportId);
  if (!row || row.dateSucceeded || row.dateFailed || row.dateDeleted) return;
  const realm = await domain.directory.realm(row.realmId);
  if (!realm) return;
  const finish = (patch: { dateSucceeded?: Date; dateFailed?: Date; exportPath?: string }) =>
    domain.exports.change(async (unit) => {
      await unit.update(exportId, patch);
      return {
        result: undefined,
        events: [exportsEvent(realm.id, realm.url, await unit.list(realm.id), `export-${exportId}`)],
      };
    });
  try {
    const settings = new internal.SettingsReader(
      new ServiceClient({ caller: 'messaging', baseUrl: config.settingsUrl, secret: config.internalSecret }),
    );
    const groups = new ServiceClient({ caller: 'messaging', baseUrl: config.groupsUrl, secret: config.internalSecret });
    const realmRecord = (await settings.realmsAfter(realm.id - 1)).find((r) => r.realm_id === realm.id);
    const users = (
      await allPages(
        (after) => settings.usersAfter(after),
        (u) => u.user_id,
      )
    ).filter((u) => u.realm_id === realm.id);
    const userGroups = (
      await allPages(
        async (after) =>
          (await groups.call('GET', '/groups', internal.groupsPage, { query: { after_id: after } })).groups,
        (g) => g.group.group_id,
      )
    ).filter((g) => g.group.realm_id === realm.id);
    const channels = await domain.channels.channelsInRealm(realm.id);
    const subscribers = await domain.channels.subscribers(channels.map((c) => c.id));
    const consenting = users.filter((u) => !u.is_bot).map((u) => u.user_id);
    const consented = new Set(
      (await domain.readModel.usersByIds(realm.id, consenting))
        .filter((u) => u.allowPrivateDataExport)
        .map((u) => u.id),
    );
    const publicChannels = new Set(channels.filter((c) => !c.inviteOnly).map((c) => c.id));
    const messages = (await store.db.message.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' } })).filter(
      (m) =>
        (m.channelId !== null && publicChannels.has(m.channelId)) ||
        (row.exportType !== EXPORT_PUBLIC && consented.has(m.senderId)),
    );
    const json = (name: string, value: unknown) => ({ name, data: Buffer.from(JSON.stringify(value, null, 1)) });
    const archive = tarGz([
      json('realm.json', { realm: realmRecord, export_type: row.exportType, exported_at: new Date().toISOString() }),
      json('users.json', users),
      json('user_groups.json', userGroups),
      json(
        'channels.json',
        channels.map((c) => ({ ...c, subscribers: subscribers.get(c.id) ?? [] })),
      ),
      json('messages.json', messages),
      json('organization.json', {
        default_streams: await domain.defaultChannels.ids(realm.id),
        channel_folders: (await domain.channelFolders.list(realm.id)).map(folderDict),
        linkifiers: (await domain.linkifiers.list(realm.id)).map(linkifierDict),
        playgrounds: (await domain.playgrounds.list(realm.id)).map(playgroundDict),
      }),
    ]);
    const path = `${realm.id}/${randomBytes(12).toString('hex')}/zulip-export-${randomBytes(4).toString('hex')}.tar.gz`;
    await mkdir(dirname(join(exportsDir(config), path)), { recursive: true });
    await writeFile(join(exportsDir(config), path), archive);
    await finish({ dateSucceeded: new Date(), exportPath: path });
    ctx.logger.info({ exportId, bytes: archive.length, messages: messages.length }, 'organization exported');
  } catch (err) {
    ctx.logger.error({ err, exportId }, 'organization export failed');
    await finish({ dateFailed: new Date() });
  }
}
