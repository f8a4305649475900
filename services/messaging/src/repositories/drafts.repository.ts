import type { DraftStore, DraftUnit, StoredDraft } from '../domain/user-content-store.js';
import type { Tx } from './prisma.js';
import type { Store } from './store.js';

function toDraft(row: {
  id: number;
  userId: number;
  type: string;
  to: number[];
  topic: string;
  content: string;
  lastEditTime: Date;
}): StoredDraft {
  return { ...row, type: row.type as StoredDraft['type'] };
}

/** The drafts table (Zulip's Draft): a user's unsent messages, synchronized between their clients. */
export class DraftsRepository implements DraftStore {
  constructor(private readonly store: Store) {}

  async list(userId: number): Promise<StoredDraft[]> {
    const rows = await this.store.db.draft.findMany({
      where: { userId },
      orderBy: [{ lastEditTime: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toDraft);
  }

  async get(userId: number, id: number): Promise<StoredDraft | null> {
    const row = await this.store.db.draft.findFirst({ where: { id, userId } });
    return row ? toDraft(row) : null;
  }

  /** The drafts' part of a unit of work (MessagingStore's `drafts`), joined to `tx`. */
  in(tx: Tx): DraftUnit {
    return {
      async createMany(drafts) {
        if (drafts.length === 0) return [];
        const rows = await tx.draft.createManyAndReturn({ data: [...drafts] });
        return rows.map(toDraft).sort((a, b) => a.id - b.id);
      },
      async update(draft) {
        const { count } = await tx.draft.updateMany({
          where: { id: draft.id, userId: draft.userId },
          data: {
            type: draft.type,
            to: draft.to,
            topic: draft.topic,
            content: draft.content,
            lastEditTime: draft.lastEditTime,
          },
        });
        return count > 0;
      },
      async delete(userId, id) {
        const { count } = await tx.draft.deleteMany({ where: { id, userId } });
        return count > 0;
      },
    };
  }
}
