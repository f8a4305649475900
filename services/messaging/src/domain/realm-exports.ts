import { invalid, organizationAdministratorRequired } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import type { StoredExport, ExportRunner } from './realm-content-store.js';

/** Zulip's limit: five exports in seven days. */
const EXPORT_LIMIT = 5;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
export const EXPORT_PUBLIC = 1;
export const EXPORT_STANDARD = 2;

const seconds = (d: Date | null) => (d === null ? null : d.getTime() / 1000);

/** Zulip's get_realm_exports_serialized entry. */
export function exportDict(e: StoredExport, realmUrl: string): contracts.RealmExportRecord {
  const done = e.dateSucceeded !== null && e.dateDeleted === null && e.exportPath !== null;
  return {
    id: e.id,
    acting_user_id: e.actingUserId,
    export_time: seconds(e.dateRequested)!,
    deleted_timestamp: seconds(e.dateDeleted),
    failed_timestamp: seconds(e.dateFailed),
    export_url: done ? `${realmUrl.replace(/\/+$/, '')}/user_uploads/exports/${e.exportPath}` : null,
    pending: e.dateSucceeded === null && e.dateFailed === null && e.dateDeleted === null,
    export_type: e.exportType,
  };
}

/** The `realm_export.changed` event: every export of the organization, for its administrators. */
export function exportsEvent(realmId: number, realmUrl: string, exports: readonly StoredExport[], requestId: string) {
  return outboxRecord(
    contracts.realmExportsChanged,
    { realm_id: realmId, exports: exports.map((e) => exportDict(e, realmUrl)) },
    { realmId, requestId },
  );
}

function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
}

/** GET /export/realm. */
export async function listExports(domain: Domain, actor: Actor) {
  requireAdmin(actor);
  return { exports: (await domain.exports.list(actor.realm.id)).map((e) => exportDict(e, actor.realm.url)) };
}

/** POST /export/realm (Zulip's export_realm): queued for the worker; its progress is told by realm_export events. */
export async function requestExport(
  domain: Domain,
  runner: ExportRunner,
  actor: Actor,
  exportType: number,
): Promise<{ id: number }> {
  requireAdmin(actor);
  const recent = (await domain.exports.list(actor.realm.id)).filter(
    (e) => Date.now() - e.dateRequested.getTime() < WEEK_MS,
  );
  if (recent.length >= EXPORT_LIMIT) throw invalid('Exceeded rate limit.');
  const created = await domain.db.write(actor.realm.id, async ({ exports }) => {
    const row = await exports.create({ realmId: actor.realm.id, actingUserId: actor.user.id, exportType });
    const event = exportsEvent(actor.realm.id, actor.realm.url, await exports.list(actor.realm.id), actor.requestId);
    return { result: row, events: [event] };
  });
  await runner.enqueue(created.id);
  return { id: created.id };
}

/** DELETE /export/realm/{export_id} (Zulip's delete_realm_export). */
export async function deleteExport(domain: Domain, runner: ExportRunner, actor: Actor, id: number): Promise<void> {
  requireAdmin(actor);
  const row = await domain.exports.byId(id);
  if (!row || row.realmId !== actor.realm.id) throw invalid('Invalid data export ID');
  if (row.dateDeleted) throw invalid('Export already deleted');
  if (row.dateFailed) throw invalid('Export failed, nothing to delete');
  if (!row.dateSucceeded) throw invalid('Export still in progress');
  await domain.db.write(actor.realm.id, async ({ exports }) => {
    await exports.update(id, { dateDeleted: new Date() });
    const event = exportsEvent(actor.realm.id, actor.realm.url, await exports.list(actor.realm.id), actor.requestId);
    return { result: undefined, events: [event] };
  });
  if (row.exportPath) await runner.remove(row.exportPath);
}

/** GET /export/realm/consents: whether each member lets administrators export their private data. */
export async function exportConsents(domain: Domain, actor: Actor) {
  requireAdmin(actor);
  const users = (await domain.readModel.activeUsersInRealm(actor.realm.id)).filter((u) => !u.isBot);
  return { export_consents: users.map((u) => ({ user_id: u.id, consented: u.allowPrivateDataExport })) };
}
