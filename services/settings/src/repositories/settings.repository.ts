import { UnitOfWork, writeOutbox, type OutboxRecord } from '@confab/events';
import type { Realm, Role, User } from '../domain/types.js';
import type { Db, Prisma, Tx } from './prisma.js';

type RealmRow = Prisma.RealmGetPayload<object>;
type UserRow = Prisma.UserGetPayload<object>;

function toRealm(row: RealmRow): Realm {
  return {
    id: row.id,
    stringId: row.stringId,
    name: row.name,
    description: row.description,
    dateCreated: row.dateCreated,
    deactivated: row.deactivated,
    emailAuthEnabled: row.emailAuthEnabled,
    jwtKey: row.jwtKey,
    emptyTopicDisplayName: row.emptyTopicDisplayName,
    mandatoryTopics: row.mandatoryTopics,
    messageContentDeleteLimitSeconds: row.messageContentDeleteLimitSeconds,
    waitingPeriodThreshold: row.waitingPeriodThreshold,
    nameChangesDisabled: row.nameChangesDisabled,
    emailChangesDisabled: row.emailChangesDisabled,
    permissions: (row.permissions ?? {}) as Realm['permissions'],
  };
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    realmId: row.realmId,
    email: row.email,
    deliveryEmail: row.deliveryEmail,
    fullName: row.fullName,
    role: row.role as Role,
    isBot: row.isBot,
    botType: row.botType,
    botOwnerId: row.botOwnerId,
    isActive: row.isActive,
    isImportedStub: row.isImportedStub,
    timezone: row.timezone,
    dateJoined: row.dateJoined,
    avatarVersion: row.avatarVersion,
    passwordHash: row.passwordHash,
    maxMessageId: row.maxMessageId,
  };
}

/** Largest value of a Postgres integer column; ids beyond it cannot exist. */
const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;

export interface NewRealm {
  stringId: string;
  name: string;
  description?: string;
  jwtKey?: string | null;
  permissions: Realm['permissions'];
}

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  role: Role;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  passwordHash?: string | null;
  timezone?: string;
}

export interface UserChanges {
  fullName?: string;
  role?: Role;
  timezone?: string;
  passwordHash?: string;
  email?: string;
}

/** The settings service's door to its users, realms and credentials (other tables have their own repositories). */
export class SettingsRepository {
  private readonly unit: UnitOfWork<Tx>;

  constructor(
    readonly db: Db,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    afterCommit: () => void = () => undefined,
  ) {
    this.unit = new UnitOfWork<Tx>({
      transaction: (body) => this.db.$transaction(body),
      writeOutbox,
      afterCommit,
    });
  }

  /** Runs `fn` in a transaction; the outbox records it returns are written in the same transaction. */
  transaction<T>(fn: (tx: Tx) => Promise<{ result: T; events: OutboxRecord[] }>): Promise<T> {
    return this.unit.run(fn);
  }

  async realmByStringId(stringId: string): Promise<Realm | null> {
    const row = await this.db.realm.findUnique({ where: { stringId } });
    return row ? toRealm(row) : null;
  }

  async realmById(id: number): Promise<Realm | null> {
    if (!validId(id)) return null;
    const row = await this.db.realm.findUnique({ where: { id } });
    return row ? toRealm(row) : null;
  }

  async createRealm(tx: Tx, data: NewRealm): Promise<Realm> {
    const row = await tx.realm.create({
      data: {
        stringId: data.stringId,
        name: data.name,
        description: data.description ?? '',
        jwtKey: data.jwtKey ?? null,
        permissions: data.permissions,
      },
    });
    return toRealm(row);
  }

  async realmsAfter(afterId: number, limit: number): Promise<Realm[]> {
    const rows = await this.db.realm.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit });
    return rows.map(toRealm);
  }

  async usersAfter(afterId: number, limit: number): Promise<User[]> {
    const rows = await this.db.user.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit });
    return rows.map(toUser);
  }

  async userByEmail(realmId: number, email: string): Promise<User | null> {
    const row = await this.db.user.findUnique({
      where: { realmId_emailKey: { realmId, emailKey: email.trim().toLowerCase() } },
    });
    return row ? toUser(row) : null;
  }

  async userById(id: number): Promise<User | null> {
    if (!validId(id)) return null;
    const row = await this.db.user.findUnique({ where: { id } });
    return row ? toUser(row) : null;
  }

  async usersInRealm(realmId: number, ids?: readonly number[]): Promise<User[]> {
    const rows = await this.db.user.findMany({
      where: { realmId, ...(ids ? { id: { in: ids.filter(validId) } } : {}) },
      orderBy: { id: 'asc' },
    });
    return rows.map(toUser);
  }

  /** The user holding this API key (by hash), with their organization. */
  async byApiKeyHash(keyHash: string): Promise<{ user: User; realm: Realm } | null> {
    const row = await this.db.apiKey.findUnique({
      where: { keyHash },
      include: { user: { include: { realm: true } } },
    });
    if (!row) return null;
    return { user: toUser(row.user), realm: toRealm(row.user.realm) };
  }

  async addApiKey(userId: number, keyHash: string, tx?: Tx): Promise<void> {
    await (tx ?? this.db).apiKey.create({ data: { userId, keyHash } });
  }

  async createUser(tx: Tx, data: NewUser): Promise<User> {
    const row = await tx.user.create({
      data: {
        realmId: data.realmId,
        email: data.email,
        deliveryEmail: data.email,
        emailKey: data.email.toLowerCase(),
        fullName: data.fullName,
        role: data.role,
        isBot: data.isBot ?? false,
        botType: data.botType ?? null,
        botOwnerId: data.botOwnerId ?? null,
        passwordHash: data.passwordHash ?? null,
        timezone: data.timezone ?? '',
      },
    });
    return toUser(row);
  }

  /** Profile and credential changes; a new email sets both addresses (email addresses are visible to everyone). */
  async updateUser(tx: Tx, userId: number, data: UserChanges): Promise<User> {
    const row = await tx.user.update({
      where: { id: userId },
      data: {
        ...(data.fullName !== undefined ? { fullName: data.fullName } : {}),
        ...(data.role !== undefined ? { role: data.role } : {}),
        ...(data.timezone !== undefined ? { timezone: data.timezone } : {}),
        ...(data.passwordHash !== undefined ? { passwordHash: data.passwordHash } : {}),
        ...(data.email !== undefined
          ? { email: data.email, deliveryEmail: data.email, emailKey: data.email.toLowerCase() }
          : {}),
      },
    });
    return toUser(row);
  }

  /** The user, locked until the transaction ends. */
  async lockUser(tx: Tx, userId: number): Promise<User | null> {
    await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1 FOR UPDATE', userId);
    const row = await tx.user.findUnique({ where: { id: userId } });
    return row ? toUser(row) : null;
  }

  async updateRealm(
    tx: Tx,
    realmId: number,
    data: { nameChangesDisabled?: boolean; emailChangesDisabled?: boolean },
  ): Promise<Realm> {
    return toRealm(await tx.realm.update({ where: { id: realmId }, data }));
  }

  async setUserActive(tx: Tx, userId: number, active: boolean): Promise<User> {
    return toUser(await tx.user.update({ where: { id: userId }, data: { isActive: active } }));
  }

  async countActiveOwners(realmId: number): Promise<number> {
    return this.db.user.count({ where: { realmId, role: 100, isActive: true, isBot: false } });
  }

  /** Raises users' max_message_id to `messageId` (never lowers it). */
  async raiseMaxMessageId(userIds: readonly number[], messageId: number): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.$executeRawUnsafe(
      'UPDATE users SET max_message_id = $2 WHERE id = ANY($1::int[]) AND max_message_id < $2',
      userIds,
      messageId,
    );
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.$queryRawUnsafe('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
