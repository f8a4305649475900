import type {
  LinkifierStore,
  LinkifierUnit,
  PlaygroundStore,
  PlaygroundUnit,
  StoredLinkifier,
  StoredPlayground,
} from '../domain/realm-content-store.js';
import { isUniqueViolation, validId, type Tx } from './prisma.js';
import type { Store } from './store.js';

const linkifiersOf = (db: Store['db'] | Tx, realmId: number): Promise<StoredLinkifier[]> =>
  db.linkifier.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });

const playgroundsOf = (db: Store['db'] | Tx, realmId: number): Promise<StoredPlayground[]> =>
  db.codePlayground.findMany({ where: { realmId }, orderBy: { id: 'asc' } });

/** A write that breaks a unique key answers null (the domain's "already exists"). */
async function unlessTaken<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/** The linkifiers table (Zulip's RealmFilter), in the organization's order. */
export class LinkifiersRepository implements LinkifierStore {
  constructor(private readonly store: Store) {}

  list(realmId: number): Promise<StoredLinkifier[]> {
    return linkifiersOf(this.store.db, realmId);
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): LinkifierUnit {
    return {
      async create(realmId, pattern, urlTemplate) {
        const last = await tx.linkifier.aggregate({ where: { realmId }, _max: { order: true } });
        const order = (last._max.order ?? -1) + 1;
        return unlessTaken(tx.linkifier.create({ data: { realmId, pattern, urlTemplate, order } }));
      },
      async update(realmId, id, pattern, urlTemplate) {
        if (!validId(id)) return false;
        const done = await unlessTaken(
          tx.linkifier.updateMany({ where: { id, realmId }, data: { pattern, urlTemplate } }),
        );
        return done === null ? null : done.count > 0;
      },
      async delete(realmId, id) {
        if (!validId(id)) return false;
        return (await tx.linkifier.deleteMany({ where: { id, realmId } })).count > 0;
      },
      async reorder(realmId, ids) {
        await tx.$executeRaw`UPDATE linkifiers AS l SET "order" = v.position - 1
            FROM unnest(${[...ids]}::int[]) WITH ORDINALITY AS v(id, position)
            WHERE l.id = v.id AND l.realm_id = ${realmId}`;
      },
      list: (realmId) => linkifiersOf(tx, realmId),
    };
  }
}

/** The code_playgrounds table (Zulip's RealmPlayground). */
export class PlaygroundsRepository implements PlaygroundStore {
  constructor(private readonly store: Store) {}

  list(realmId: number): Promise<StoredPlayground[]> {
    return playgroundsOf(this.store.db, realmId);
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): PlaygroundUnit {
    return {
      create: (data) => unlessTaken(tx.codePlayground.create({ data })),
      async delete(realmId, id) {
        if (!validId(id)) return false;
        return (await tx.codePlayground.deleteMany({ where: { id, realmId } })).count > 0;
      },
      list: (realmId) => playgroundsOf(tx, realmId),
    };
  }
}
