import { contracts, parseEnvelope, type OutboxRecord } from '@confab/events';
import {
  HeldTransaction,
  modelPath,
  readAllNdjson,
  type ImportEvent,
  type LoaderProgress,
  type ModelGroup,
  type ServiceLoader,
  type StageInput,
  type StageResult,
} from '@confab/porting';
import { importGroups } from '../domain/imported.js';
import { applyRealm, applyUsers } from '../domain/sync.js';
import { PrismaGroupStore } from '../repositories/group-store.js';
import type { Db, Tx } from '../repositories/prisma.js';

/**
 * The groups service's part of an import (docs/architecture.md, "Moving organizations in and out"): its copies of
 * the organization and its users, applied as its consumers apply `realm.created` and `user.created` (which makes the
 * system groups and their memberships), and the export's user groups. Everything in one transaction, kept open until
 * the import commits.
 */
export class GroupsImportLoader implements ServiceLoader {
  private readonly held: HeldTransaction<Tx>;
  private readonly events: OutboxRecord[] = [];

  constructor(private readonly db: Db) {
    this.held = new HeldTransaction<Tx>((body) => db.$transaction(body, { timeout: 24 * 3600 * 1000, maxWait: 60_000 }));
  }

  async allocate(request: Record<string, number>): Promise<Record<string, number[]>> {
    const out: Record<string, number[]> = {};
    for (const [kind, count] of Object.entries(request)) {
      if (kind !== 'groups') throw new Error(`groups allocates no ${kind}`);
      const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
        `SELECT nextval('user_groups_id_seq')::int AS id FROM generate_series(1, $1::int)`,
        count,
      );
      out[kind] = rows.map((r) => r.id);
    }
    return out;
  }

  async apply(events: ImportEvent[]): Promise<void> {
    const store = new PrismaGroupStore(await this.held.get());
    const users = new Map<number, contracts.UserRecord[]>();
    for (const raw of events) {
      if (raw.type === contracts.realmCreated.type) {
        const event = parseEnvelope(contracts.realmCreated, raw);
        const meta = { realmId: event.payload.realm.realm_id, requestId: event.request_id };
        this.events.push(...(await applyRealm(store, event.payload.realm, meta)).events);
      } else if (raw.type === contracts.userCreated.type) {
        const { user } = parseEnvelope(contracts.userCreated, raw).payload;
        users.set(user.realm_id, [...(users.get(user.realm_id) ?? []), user]);
      }
    }
    for (const [realmId, records] of users) {
      this.events.push(...(await applyUsers(store, realmId, records, { realmId, requestId: `import-${realmId}` })).events);
    }
  }

  async stage(input: StageInput, progress: (p: LoaderProgress) => void): Promise<StageResult> {
    const store = new PrismaGroupStore(await this.held.get());
    const groups = await readAllNdjson<ModelGroup>(modelPath(input.workDir, 'groups'));
    progress({ phase: 'user groups', done: 0, total: groups.length });
    const meta = { realmId: input.realmId, requestId: `import-${input.realmId}` };
    this.events.push(...(await importGroups(store, input.realmId, groups, meta)));
    progress({ phase: 'user groups', done: groups.length, total: groups.length });
    return { counts: { 'user groups': groups.length }, events: this.events.map((e) => e.envelope as unknown as ImportEvent) };
  }

  commit(): Promise<void> {
    return this.held.commit();
  }

  abort(): Promise<void> {
    return this.held.abort();
  }

  async purge(realmId: number): Promise<void> {
    await this.db.$transaction(async (tx) => {
      const groups = { realmId };
      await tx.groupSubgroup.deleteMany({ where: { supergroup: groups } });
      await tx.groupMember.deleteMany({ where: { group: groups } });
      await tx.userGroup.deleteMany({ where: groups });
      await tx.user.deleteMany({ where: { realmId } });
      await tx.realm.deleteMany({ where: { id: realmId } });
    });
  }

  async realms(): Promise<number[]> {
    return (await this.db.realm.findMany({ select: { id: true } })).map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.held.abort();
    await this.db.$disconnect();
  }
}
