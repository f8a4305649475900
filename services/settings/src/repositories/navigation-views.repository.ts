import type { Db, Tx } from './prisma.js';

export interface NavigationView {
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

const select = { fragment: true, isPinned: true, name: true } as const;

export class NavigationViewRepository {
  constructor(private readonly db: Db) {}

  list(userId: number): Promise<NavigationView[]> {
    return this.db.navigationView.findMany({ where: { userId }, orderBy: { id: 'asc' }, select });
  }

  find(userId: number, fragment: string, tx?: Tx): Promise<NavigationView | null> {
    return (tx ?? this.db).navigationView.findUnique({ where: { userId_fragment: { userId, fragment } }, select });
  }

  async nameTaken(userId: number, name: string, tx?: Tx): Promise<boolean> {
    return (await (tx ?? this.db).navigationView.count({ where: { userId, name } })) > 0;
  }

  create(tx: Tx, userId: number, view: NavigationView): Promise<NavigationView> {
    return tx.navigationView.create({ data: { userId, ...view }, select });
  }

  /** False when the view does not exist (any more). */
  async update(
    tx: Tx,
    userId: number,
    fragment: string,
    data: { isPinned?: boolean | undefined; name?: string | undefined },
  ): Promise<boolean> {
    return (await tx.navigationView.updateMany({ where: { userId, fragment }, data })).count > 0;
  }

  async remove(tx: Tx, userId: number, fragment: string): Promise<boolean> {
    return (await tx.navigationView.deleteMany({ where: { userId, fragment } })).count > 0;
  }
}
