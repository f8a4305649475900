import type { Db, Prisma, Tx } from './prisma.js';

export interface StoredSettings {
  userId: number;
  values: Record<string, unknown>;
  selfEdited: string[];
}

const empty = (userId: number): StoredSettings => ({ userId, values: {}, selfEdited: [] });

/** Personal settings rows (only values ever set are stored; defaults live in the domain's catalog). */
export class UserSettingsRepository {
  constructor(private readonly db: Db) {}

  async get(userId: number): Promise<StoredSettings> {
    const row = await this.db.userSettings.findUnique({ where: { userId } });
    return row ? { userId, values: row.values as Record<string, unknown>, selfEdited: row.selfEdited } : empty(userId);
  }

  /** The rows of these users, locked until the transaction ends, so concurrent edits never lose each other's keys. */
  async lockMany(tx: Tx, userIds: readonly number[]): Promise<Map<number, StoredSettings>> {
    const ids = [...new Set(userIds)];
    const out = new Map<number, StoredSettings>(ids.map((id) => [id, empty(id)]));
    if (ids.length === 0) return out;
    await tx.$executeRawUnsafe(
      'INSERT INTO user_settings (user_id) SELECT unnest($1::int[]) ON CONFLICT (user_id) DO NOTHING',
      ids,
    );
    const rows = await tx.$queryRawUnsafe<
      { user_id: number; values: Record<string, unknown>; self_edited: string[] | null }[]
    >(
      'SELECT user_id, "values", self_edited FROM user_settings WHERE user_id = ANY($1::int[]) ORDER BY user_id FOR UPDATE',
      ids,
    );
    for (const row of rows)
      out.set(row.user_id, { userId: row.user_id, values: row.values, selfEdited: row.self_edited ?? [] });
    return out;
  }

  async save(tx: Tx, settings: StoredSettings): Promise<void> {
    await tx.userSettings.update({
      where: { userId: settings.userId },
      data: { values: settings.values as Prisma.InputJsonObject, selfEdited: settings.selfEdited },
    });
  }

  /** Rows of these users (users without one get an empty row: all defaults). */
  async getMany(userIds: readonly number[]): Promise<Map<number, StoredSettings>> {
    const rows = await this.db.userSettings.findMany({ where: { userId: { in: [...userIds] } } });
    const out = new Map<number, StoredSettings>(userIds.map((id) => [id, empty(id)]));
    for (const r of rows)
      out.set(r.userId, { userId: r.userId, values: r.values as Record<string, unknown>, selfEdited: r.selfEdited });
    return out;
  }
}
