import type { AlertWordStore, BotStorageStore, MutedUserStore, UserStatusStore } from '../domain/store.js';
import type { UserStatus } from '../domain/types.js';
import type { Client, Prisma } from './prisma.js';

type StatusRow = Prisma.UserStatusGetPayload<object>;

const toStatus = (row: StatusRow): UserStatus => ({
  userId: row.userId,
  statusText: row.statusText,
  emojiName: row.emojiName,
  emojiCode: row.emojiCode,
  reactionType: row.reactionType,
  timestamp: row.timestamp,
});

export class PrismaUserStatusStore implements UserStatusStore {
  constructor(private readonly db: Client) {}

  async get(userId: number): Promise<UserStatus | null> {
    const row = await this.db.userStatus.findUnique({ where: { userId } });
    return row ? toStatus(row) : null;
  }

  async inRealm(realmId: number): Promise<UserStatus[]> {
    const rows = await this.db.userStatus.findMany({
      where: { user: { realmId, isActive: true } },
      orderBy: { userId: 'asc' },
    });
    return rows.map(toStatus);
  }

  async upsert(
    userId: number,
    fields: { statusText?: string; emojiName?: string; emojiCode?: string; reactionType?: string },
    at: Date,
  ): Promise<UserStatus> {
    const row = await this.db.userStatus.upsert({
      where: { userId },
      create: { userId, ...fields, timestamp: at },
      update: { ...fields, timestamp: at },
    });
    return toStatus(row);
  }
}

export class PrismaMutedUserStore implements MutedUserStore {
  constructor(private readonly db: Client) {}

  list(userId: number): Promise<{ mutedUserId: number; dateMuted: Date }[]> {
    return this.db.mutedUser.findMany({
      where: { userId },
      orderBy: [{ dateMuted: 'asc' }, { mutedUserId: 'asc' }],
      select: { mutedUserId: true, dateMuted: true },
    });
  }

  async add(userId: number, mutedUserId: number, at: Date): Promise<boolean> {
    const inserted = await this.db.$executeRawUnsafe(
      'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      userId,
      mutedUserId,
      at,
    );
    return inserted === 1;
  }

  async remove(userId: number, mutedUserId: number): Promise<boolean> {
    return (await this.db.mutedUser.deleteMany({ where: { userId, mutedUserId } })).count > 0;
  }
}

export class PrismaAlertWordStore implements AlertWordStore {
  constructor(private readonly db: Client) {}

  async list(userId: number): Promise<string[]> {
    const rows = await this.db.alertWord.findMany({
      where: { userId },
      orderBy: { id: 'asc' },
      select: { word: true },
    });
    return rows.map((r) => r.word);
  }

  async add(userId: number, realmId: number, words: readonly string[]): Promise<void> {
    if (words.length === 0) return;
    await this.db.alertWord.createMany({ data: words.map((word) => ({ userId, realmId, word })) });
  }

  async remove(userId: number, words: readonly string[]): Promise<void> {
    if (words.length === 0) return;
    await this.db.$executeRawUnsafe(
      'DELETE FROM alert_words WHERE user_id = $1 AND lower(word) = ANY($2::text[])',
      userId,
      words.map((w) => w.toLowerCase()),
    );
  }
}

export class PrismaBotStorageStore implements BotStorageStore {
  constructor(private readonly db: Client) {}

  async get(botId: number, keys?: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.botStorageEntry.findMany({
      where: { botId, ...(keys ? { key: { in: [...keys] } } : {}) },
      orderBy: { key: 'asc' },
    });
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  async size(botId: number, keys?: readonly string[]): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ size: bigint | number | null }[]>(
      keys
        ? 'SELECT sum(char_length(key) + char_length(value)) AS size FROM bot_storage WHERE bot_id = $1 AND key = ANY($2::text[])'
        : 'SELECT sum(char_length(key) + char_length(value)) AS size FROM bot_storage WHERE bot_id = $1',
      botId,
      ...(keys ? [[...keys]] : []),
    );
    return Number(rows[0]?.size ?? 0);
  }

  async put(botId: number, entries: ReadonlyMap<string, string>): Promise<void> {
    if (entries.size === 0) return;
    const keys = [...entries.keys()];
    await this.db.$executeRawUnsafe(
      `INSERT INTO bot_storage (bot_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS e(k, v)
       ON CONFLICT (bot_id, key) DO UPDATE SET value = EXCLUDED.value`,
      botId,
      keys,
      keys.map((k) => entries.get(k)!),
    );
  }

  async remove(botId: number, keys?: readonly string[]): Promise<number> {
    const { count } = await this.db.botStorageEntry.deleteMany({
      where: { botId, ...(keys ? { key: { in: [...keys] } } : {}) },
    });
    return count;
  }
}
