import type { SavedSnippetStore, SavedSnippetUnit, StoredSnippet } from '../domain/user-content-store.js';
import type { Tx } from './prisma.js';
import type { Store } from './store.js';

/** The saved_snippets table: a user's reusable message texts. */
export class SavedSnippetsRepository implements SavedSnippetStore {
  constructor(private readonly store: Store) {}

  list(userId: number): Promise<StoredSnippet[]> {
    return this.store.db.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  }

  /** The snippets' part of a unit of work (MessagingStore's `savedSnippets`), joined to `tx`. */
  in(tx: Tx): SavedSnippetUnit {
    return {
      create: (data) => tx.savedSnippet.create({ data }),
      async update(userId, id, data) {
        const { count } = await tx.savedSnippet.updateMany({ where: { id, userId }, data });
        if (count === 0) return null;
        return tx.savedSnippet.findUnique({ where: { id } });
      },
      async delete(userId, id) {
        const { count } = await tx.savedSnippet.deleteMany({ where: { id, userId } });
        return count > 0;
      },
    };
  }
}
