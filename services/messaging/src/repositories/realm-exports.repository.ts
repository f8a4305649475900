import type { ExportStore, ExportUnit, StoredExport } from '../domain/realm-content-store.js';
import { validId, type Tx } from './prisma.js';
import type { Store } from './store.js';

const fields = {
  id: true,
  realmId: true,
  actingUserId: true,
  exportType: true,
  dateRequested: true,
  dateSucceeded: true,
  dateFailed: true,
  dateDeleted: true,
  exportPath: true,
} as const;

/** The realm_exports table. */
export class RealmExportsRepository implements ExportStore {
  constructor(private readonly store: Store) {}

  list(realmId: number): Promise<StoredExport[]> {
    return this.store.db.realmExport.findMany({ where: { realmId }, select: fields, orderBy: { id: 'asc' } });
  }

  async byId(id: number): Promise<StoredExport | null> {
    if (!validId(id)) return null;
    return this.store.db.realmExport.findUnique({ where: { id }, select: fields });
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): ExportUnit {
    return {
      create: (data) => tx.realmExport.create({ data, select: fields }),
      async update(id, patch) {
        await tx.realmExport.update({ where: { id }, data: patch });
      },
      list: (realmId) => tx.realmExport.findMany({ where: { realmId }, select: fields, orderBy: { id: 'asc' } }),
    };
  }
}
