import type { Tx } from './prisma.js';
import type { Store } from './store.js';

export interface StoredSnippet {
  id: number;
  realmId: number;
  userId: number;
  title: string;
  content: string;
  dateCreated: Date;
}

/** The saved_snippets table: a user's reusable message texts. */
export class SavedSnippetsRepository {
  constructor(private readonly store: Store) {}

  list(userId: number): Promise<StoredSnippet[]> {
    return this.store.db.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  }

  create(tx: Tx, data: { realmId: number; userId: number; title: string; content: string }): Promise<StoredSnippet> {
    return tx.savedSnippet.create({ data });
  }

  /** The updated snippet, or null when the user has no snippet with that id. */
  async update(
    tx: Tx,
    userId: number,
    id: number,
    data: { title?: string; content?: string },
  ): Promise<StoredSnippet | null> {
    const { count } = await tx.savedSnippet.updateMany({ where: { id, userId }, data });
    if (count === 0) return null;
    return tx.savedSnippet.findUnique({ where: { id } });
  }

  async delete(tx: Tx, userId: number, id: number): Promise<boolean> {
    const { count } = await tx.savedSnippet.deleteMany({ where: { id, userId } });
    return count > 0;
  }
}
