import type { Written } from '@confab/events';
import type { SavedSnippetStore, SavedSnippetUnit, StoredSnippet } from '../domain/user-content-store.js';
import type { Store } from './store.js';

/** The saved_snippets table: a user's reusable message texts. */
export class SavedSnippetsRepository implements SavedSnippetStore {
  constructor(private readonly store: Store) {}

  list(userId: number): Promise<StoredSnippet[]> {
    return this.store.db.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  }

  change<T>(fn: (unit: SavedSnippetUnit) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction((tx) =>
      fn({
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
      }),
    );
  }
}
