import { contracts, parseEnvelope } from '@confab/events';
import {
  HeldTransaction,
  type ImportEvent,
  type LoaderProgress,
  type ServiceLoader,
  type StageInput,
  type StageResult,
} from '@confab/porting';
import { notificationSettingsFrom } from '../domain/notification-rules.js';
import type { Db, Tx } from '../repositories/prisma.js';
import { NotificationsRepository } from '../repositories/notifications.repository.js';

/**
 * The push service's part of an import (docs/architecture.md, "Moving organizations in and out"): its copy of the
 * imported users' notification settings, from their `user_settings.changed` events. Nothing else of an import is
 * the push service's (devices register anew, as after Zulip's import).
 */
export class PushImportLoader implements ServiceLoader {
  private readonly held: HeldTransaction<Tx>;

  constructor(private readonly db: Db) {
    this.held = new HeldTransaction<Tx>((body) => db.$transaction(body, { timeout: 24 * 3600 * 1000, maxWait: 60_000 }));
  }

  allocate(request: Record<string, number>): Promise<Record<string, number[]>> {
    if (Object.keys(request).length > 0) return Promise.reject(new Error('push allocates nothing'));
    return Promise.resolve({});
  }

  async apply(events: ImportEvent[]): Promise<void> {
    const rows = events
      .filter((e) => e.type === contracts.userSettingsChanged.type)
      .map((raw) => parseEnvelope(contracts.userSettingsChanged, raw).payload)
      .map((p) => ({ userId: p.user_id, realmId: p.realm_id, settings: notificationSettingsFrom(p.settings) }));
    // The repository's statement, inside the import's transaction.
    await new NotificationsRepository((await this.held.get()) as unknown as Db).addMissingSettings(rows);
  }

  stage(_input: StageInput, _progress: (p: LoaderProgress) => void): Promise<StageResult> {
    return Promise.resolve({ counts: {}, events: [] });
  }

  commit(): Promise<void> {
    return this.held.commit();
  }

  abort(): Promise<void> {
    return this.held.abort();
  }

  async purge(realmId: number): Promise<void> {
    await this.db.notificationSettings.deleteMany({ where: { realmId } });
  }

  async realms(): Promise<number[]> {
    const rows = await this.db.notificationSettings.findMany({ select: { realmId: true }, distinct: ['realmId'] });
    return rows.map((r) => r.realmId);
  }

  async close(): Promise<void> {
    await this.held.abort();
    await this.db.$disconnect();
  }
}
