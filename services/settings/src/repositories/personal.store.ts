import type { EmailChangeStore, MeetingTokenStore, NavigationViewStore, UserSettingsStore } from '../domain/store.js';
import {
  EMAIL_CHANGE_CONFIRMED,
  EMAIL_CHANGE_PENDING,
  EMAIL_CHANGE_REPLACED,
  type EmailChange,
  type NavigationView,
  type StoredSettings,
} from '../domain/types.js';
import type { Client, Prisma } from './prisma.js';

const empty = (userId: number): StoredSettings => ({ userId, values: {}, selfEdited: [] });

/** Personal settings rows (only values ever set are stored; defaults live in the domain's catalog). */
export class PrismaUserSettingsStore implements UserSettingsStore {
  constructor(private readonly db: Client) {}

  async get(userId: number): Promise<StoredSettings> {
    const row = await this.db.userSettings.findUnique({ where: { userId } });
    return row ? { userId, values: row.values as Record<string, unknown>, selfEdited: row.selfEdited } : empty(userId);
  }

  async getMany(userIds: readonly number[]): Promise<Map<number, StoredSettings>> {
    const rows = await this.db.userSettings.findMany({ where: { userId: { in: [...userIds] } } });
    const out = new Map<number, StoredSettings>(userIds.map((id) => [id, empty(id)]));
    for (const r of rows)
      out.set(r.userId, { userId: r.userId, values: r.values as Record<string, unknown>, selfEdited: r.selfEdited });
    return out;
  }

  async lockMany(userIds: readonly number[]): Promise<Map<number, StoredSettings>> {
    const ids = [...new Set(userIds)];
    const out = new Map<number, StoredSettings>(ids.map((id) => [id, empty(id)]));
    if (ids.length === 0) return out;
    await this.db.$executeRawUnsafe(
      'INSERT INTO user_settings (user_id) SELECT unnest($1::int[]) ON CONFLICT (user_id) DO NOTHING',
      ids,
    );
    const rows = await this.db.$queryRawUnsafe<
      { user_id: number; values: Record<string, unknown>; self_edited: string[] | null }[]
    >(
      'SELECT user_id, "values", self_edited FROM user_settings WHERE user_id = ANY($1::int[]) ORDER BY user_id FOR UPDATE',
      ids,
    );
    for (const row of rows)
      out.set(row.user_id, { userId: row.user_id, values: row.values, selfEdited: row.self_edited ?? [] });
    return out;
  }

  async save(settings: StoredSettings): Promise<void> {
    await this.db.userSettings.update({
      where: { userId: settings.userId },
      data: { values: settings.values as Prisma.InputJsonObject, selfEdited: settings.selfEdited },
    });
  }
}

const viewSelect = { fragment: true, isPinned: true, name: true } as const;

export class PrismaNavigationViewStore implements NavigationViewStore {
  constructor(private readonly db: Client) {}

  list(userId: number): Promise<NavigationView[]> {
    return this.db.navigationView.findMany({ where: { userId }, orderBy: { id: 'asc' }, select: viewSelect });
  }

  find(userId: number, fragment: string): Promise<NavigationView | null> {
    return this.db.navigationView.findUnique({ where: { userId_fragment: { userId, fragment } }, select: viewSelect });
  }

  async nameTaken(userId: number, name: string): Promise<boolean> {
    return (await this.db.navigationView.count({ where: { userId, name } })) > 0;
  }

  create(userId: number, view: NavigationView): Promise<NavigationView> {
    return this.db.navigationView.create({ data: { userId, ...view }, select: viewSelect });
  }

  async update(
    userId: number,
    fragment: string,
    data: { isPinned?: boolean | undefined; name?: string | undefined },
  ): Promise<boolean> {
    return (await this.db.navigationView.updateMany({ where: { userId, fragment }, data })).count > 0;
  }

  async remove(userId: number, fragment: string): Promise<boolean> {
    return (await this.db.navigationView.deleteMany({ where: { userId, fragment } })).count > 0;
  }
}

const changeSelect = {
  id: true,
  userId: true,
  oldEmail: true,
  newEmail: true,
  status: true,
  expiresAt: true,
} as const;

export class PrismaEmailChangeStore implements EmailChangeStore {
  constructor(private readonly db: Client) {}

  async create(data: Omit<EmailChange, 'id' | 'status'> & { keyHash: string }): Promise<EmailChange> {
    await this.db.emailChange.updateMany({
      where: { userId: data.userId, status: EMAIL_CHANGE_PENDING },
      data: { status: EMAIL_CHANGE_REPLACED },
    });
    return this.db.emailChange.create({ data, select: changeSelect });
  }

  byKeyHash(keyHash: string): Promise<EmailChange | null> {
    return this.db.emailChange.findUnique({ where: { keyHash }, select: changeSelect });
  }

  async claim(id: number, now: Date): Promise<boolean> {
    const { count } = await this.db.emailChange.updateMany({
      where: { id, status: EMAIL_CHANGE_PENDING, expiresAt: { gt: now } },
      data: { status: EMAIL_CHANGE_CONFIRMED },
    });
    return count === 1;
  }

  async setStatus(id: number, status: number): Promise<void> {
    await this.db.emailChange.update({ where: { id }, data: { status } });
  }
}

/** Sealed meeting-provider tokens and the OAuth `state` values of authorizations in flight. */
export class PrismaMeetingTokenStore implements MeetingTokenStore {
  constructor(private readonly db: Client) {}

  async get(userId: number, provider: string): Promise<string | null> {
    const row = await this.db.meetingToken.findUnique({ where: { userId } });
    return row && row.provider === provider ? row.sealed : null;
  }

  async put(userId: number, provider: string, sealed: string): Promise<void> {
    await this.db.meetingToken.upsert({
      where: { userId },
      create: { userId, provider, sealed },
      update: { provider, sealed },
    });
  }

  async remove(userId: number): Promise<boolean> {
    return (await this.db.meetingToken.deleteMany({ where: { userId } })).count > 0;
  }

  async addState(stateHash: string, userId: number, expiresAt: Date): Promise<void> {
    // Expired states are swept as new ones arrive, so the table stays small.
    await this.db.meetingOAuthState.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    await this.db.meetingOAuthState.create({ data: { stateHash, userId, expiresAt } });
  }

  async takeState(stateHash: string, now: Date): Promise<number | null> {
    const rows = await this.db.meetingOAuthState.findMany({ where: { stateHash } });
    const { count } = await this.db.meetingOAuthState.deleteMany({ where: { stateHash } });
    const row = rows[0];
    if (count !== 1 || !row || row.expiresAt <= now) return null;
    return row.userId;
  }
}
