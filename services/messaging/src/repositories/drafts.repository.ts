import type { Tx } from './prisma.js';
import type { Store } from './store.js';

export interface StoredDraft {
  id: number;
  userId: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  lastEditTime: Date;
}

export type NewDraft = Omit<StoredDraft, 'id'>;

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
export class DraftsRepository {
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

  async createMany(tx: Tx, drafts: readonly NewDraft[]): Promise<StoredDraft[]> {
    if (drafts.length === 0) return [];
    const rows = await tx.draft.createManyAndReturn({ data: [...drafts] });
    return rows.map(toDraft).sort((a, b) => a.id - b.id);
  }

  /** Replaces a draft's fields; false when it no longer exists. */
  async update(tx: Tx, draft: StoredDraft): Promise<boolean> {
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
  }

  async delete(tx: Tx, userId: number, id: number): Promise<boolean> {
    const { count } = await tx.draft.deleteMany({ where: { id, userId } });
    return count > 0;
  }
}
