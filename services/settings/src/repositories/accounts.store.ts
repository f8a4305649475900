import { ROLE_OWNER } from '@confab/identity';
import type { RealmStore, UserStore } from '../domain/store.js';
import type { NewRealm, NewUser, Realm, RealmPatch, Role, User, UserChanges } from '../domain/types.js';
import { validId, type Client, type Prisma } from './prisma.js';

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
    presenceDisabled: row.presenceDisabled,
    allowMessageEditing: row.allowMessageEditing,
    messageContentEditLimitSeconds: row.messageContentEditLimitSeconds,
    moveMessagesWithinStreamLimitSeconds: row.moveMessagesWithinStreamLimitSeconds,
    moveMessagesBetweenStreamsLimitSeconds: row.moveMessagesBetweenStreamsLimitSeconds,
    enableReadReceipts: row.enableReadReceipts,
    messageRetentionDays: row.messageRetentionDays,
    permissions: (row.permissions ?? {}) as Realm['permissions'],
    defaultEmailAddressVisibility: row.defaultEmailAddressVisibility,
    settings: (row.settings ?? {}) as Record<string, unknown>,
    userSettingsDefaults: (row.userSettingsDefaults ?? {}) as Record<string, unknown>,
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
    isSystemBot: row.isSystemBot,
    timezone: row.timezone,
    dateJoined: row.dateJoined,
    avatarVersion: row.avatarVersion,
    avatarFile: row.avatarFile,
    passwordHash: row.passwordHash,
    emailAddressVisibility: row.emailAddressVisibility,
  };
}

export class PrismaRealmStore implements RealmStore {
  constructor(private readonly db: Client) {}

  async byId(id: number): Promise<Realm | null> {
    if (!validId(id)) return null;
    const row = await this.db.realm.findUnique({ where: { id } });
    return row ? toRealm(row) : null;
  }

  async byStringId(stringId: string): Promise<Realm | null> {
    const row = await this.db.realm.findUnique({ where: { stringId } });
    return row ? toRealm(row) : null;
  }

  async after(afterId: number, limit: number): Promise<Realm[]> {
    const rows = await this.db.realm.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit });
    return rows.map(toRealm);
  }

  async create(data: NewRealm): Promise<Realm> {
    const row = await this.db.realm.create({
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

  async lock(realmId: number): Promise<Realm | null> {
    if (!validId(realmId)) return null;
    await this.db.$queryRawUnsafe('SELECT id FROM realms WHERE id = $1 FOR UPDATE', realmId);
    return this.byId(realmId);
  }

  async update(realmId: number, patch: RealmPatch): Promise<Realm> {
    const data: Prisma.RealmUpdateInput = {};
    if (patch.nameChangesDisabled !== undefined) data.nameChangesDisabled = patch.nameChangesDisabled;
    if (patch.emailAuthEnabled !== undefined) data.emailAuthEnabled = patch.emailAuthEnabled;
    if (patch.emailChangesDisabled !== undefined) data.emailChangesDisabled = patch.emailChangesDisabled;
    if (patch.presenceDisabled !== undefined) data.presenceDisabled = patch.presenceDisabled;
    if (patch.waitingPeriodThreshold !== undefined) data.waitingPeriodThreshold = patch.waitingPeriodThreshold;
    if (patch.permissions !== undefined) data.permissions = patch.permissions;
    if (patch.defaultEmailAddressVisibility !== undefined) {
      data.defaultEmailAddressVisibility = patch.defaultEmailAddressVisibility;
    }
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.description !== undefined) data.description = patch.description;
    if (patch.mandatoryTopics !== undefined) data.mandatoryTopics = patch.mandatoryTopics;
    if (patch.allowMessageEditing !== undefined) data.allowMessageEditing = patch.allowMessageEditing;
    if (patch.enableReadReceipts !== undefined) data.enableReadReceipts = patch.enableReadReceipts;
    if (patch.messageContentDeleteLimitSeconds !== undefined)
      data.messageContentDeleteLimitSeconds = patch.messageContentDeleteLimitSeconds;
    if (patch.messageContentEditLimitSeconds !== undefined)
      data.messageContentEditLimitSeconds = patch.messageContentEditLimitSeconds;
    if (patch.moveMessagesWithinStreamLimitSeconds !== undefined)
      data.moveMessagesWithinStreamLimitSeconds = patch.moveMessagesWithinStreamLimitSeconds;
    if (patch.moveMessagesBetweenStreamsLimitSeconds !== undefined)
      data.moveMessagesBetweenStreamsLimitSeconds = patch.moveMessagesBetweenStreamsLimitSeconds;
    if (patch.messageRetentionDays !== undefined) data.messageRetentionDays = patch.messageRetentionDays;
    if (patch.settings !== undefined) data.settings = patch.settings as Prisma.InputJsonObject;
    if (patch.userSettingsDefaults !== undefined)
      data.userSettingsDefaults = patch.userSettingsDefaults as Prisma.InputJsonObject;
    return toRealm(await this.db.realm.update({ where: { id: realmId }, data }));
  }
}

export class PrismaUserStore implements UserStore {
  constructor(private readonly db: Client) {}

  async byId(id: number): Promise<User | null> {
    if (!validId(id)) return null;
    const row = await this.db.user.findUnique({ where: { id } });
    return row ? toUser(row) : null;
  }

  async byEmail(realmId: number, email: string): Promise<User | null> {
    const row = await this.db.user.findUnique({
      where: { realmId_emailKey: { realmId, emailKey: email.trim().toLowerCase() } },
    });
    return row ? toUser(row) : null;
  }

  async inRealm(realmId: number, ids?: readonly number[]): Promise<User[]> {
    const rows = await this.db.user.findMany({
      where: { realmId, isSystemBot: false, ...(ids ? { id: { in: ids.filter(validId) } } : {}) },
      orderBy: { id: 'asc' },
    });
    return rows.map(toUser);
  }

  async systemBots(realmId: number): Promise<User[]> {
    const rows = await this.db.user.findMany({ where: { realmId, isSystemBot: true }, orderBy: { id: 'asc' } });
    return rows.map(toUser);
  }

  async after(afterId: number, limit: number): Promise<User[]> {
    const rows = await this.db.user.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit });
    return rows.map(toUser);
  }

  async create(data: NewUser): Promise<User> {
    const row = await this.db.user.create({
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
        isSystemBot: data.isSystemBot ?? false,
        emailAddressVisibility: data.emailAddressVisibility ?? 1,
      },
    });
    return toUser(row);
  }

  /** Profile and credential changes; a new delivery email sets the API email too unless `apiEmail` says otherwise. */
  async update(userId: number, data: UserChanges): Promise<User> {
    const row = await this.db.user.update({
      where: { id: userId },
      data: {
        ...(data.fullName !== undefined ? { fullName: data.fullName } : {}),
        ...(data.role !== undefined ? { role: data.role } : {}),
        ...(data.timezone !== undefined ? { timezone: data.timezone } : {}),
        ...(data.botOwnerId !== undefined ? { botOwnerId: data.botOwnerId } : {}),
        ...(data.passwordHash !== undefined ? { passwordHash: data.passwordHash } : {}),
        ...(data.email !== undefined
          ? { email: data.email, deliveryEmail: data.email, emailKey: data.email.toLowerCase() }
          : {}),
        ...(data.apiEmail !== undefined ? { email: data.apiEmail } : {}),
        ...(data.emailAddressVisibility !== undefined ? { emailAddressVisibility: data.emailAddressVisibility } : {}),
      },
    });
    return toUser(row);
  }

  async setAvatar(userId: number, fileName: string | null): Promise<User> {
    const row = await this.db.user.update({
      where: { id: userId },
      data: { avatarFile: fileName, avatarVersion: { increment: 1 } },
    });
    return toUser(row);
  }

  async lock(userId: number): Promise<User | null> {
    if (!validId(userId)) return null;
    await this.db.$queryRawUnsafe('SELECT id FROM users WHERE id = $1 FOR UPDATE', userId);
    return this.byId(userId);
  }

  async setActive(userId: number, active: boolean): Promise<User> {
    return toUser(await this.db.user.update({ where: { id: userId }, data: { isActive: active } }));
  }

  countActiveOwners(realmId: number): Promise<number> {
    return this.db.user.count({ where: { realmId, role: ROLE_OWNER, isActive: true, isBot: false } });
  }

  async countActive(realmId: number, atMost: number): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM users WHERE realm_id = $1 AND is_active AND NOT is_system_bot LIMIT $2
       ) AS bounded`,
      realmId,
      Math.max(0, Math.floor(atMost)),
    );
    return rows[0]?.n ?? 0;
  }

  async peopleFingerprint(realmId: number): Promise<string> {
    // Every row a write replaces gets the writing transaction's id (xmin), so the count and the sum of the ids of
    // the organization's user rows and profile values change with every committed write, whoever made it
    // (docs/architecture.md, "Initial state"). A freeze by VACUUM may change it too: a needless reload, never a miss.
    const rows = await this.db.$queryRawUnsafe<{ f: string }[]>(
      `SELECT (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM users WHERE realm_id = $1)
         || '/' || (SELECT count(*) || ':' || coalesce(sum(v.xmin::text::bigint), 0)
                      FROM custom_profile_field_values v JOIN users u ON u.id = v.user_id WHERE u.realm_id = $1) AS f`,
      realmId,
    );
    return rows[0]?.f ?? '';
  }

  async ensureApiKey(userId: number, key: string, keyHash: string): Promise<string> {
    // One statement, so that two sign-ins at once agree on the key: the first inserts, the second reads it.
    const rows = await this.db.$queryRawUnsafe<{ key: string }[]>(
      `INSERT INTO api_keys (user_id, key_hash, key) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, key = EXCLUDED.key, created_at = now()
         WHERE api_keys.key IS NULL
       RETURNING key`,
      userId,
      keyHash,
      key,
    );
    if (rows[0]) return rows[0].key;
    const held = await this.db.apiKey.findUnique({ where: { userId }, select: { key: true } });
    if (!held?.key) throw new Error(`user ${userId} holds no API key`);
    return held.key;
  }

  async replaceApiKey(userId: number, key: string, keyHash: string): Promise<void> {
    await this.db.apiKey.upsert({
      where: { userId },
      create: { userId, keyHash, key },
      update: { keyHash, key, createdAt: new Date() },
    });
  }

  async apiKeysOf(userIds: readonly number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.apiKey.findMany({
      where: { userId: { in: [...userIds] }, key: { not: null } },
      select: { userId: true, key: true },
    });
    return new Map(rows.map((row) => [row.userId, row.key!]));
  }

  async byApiKeyHash(keyHash: string): Promise<{ user: User; realm: Realm } | null> {
    const row = await this.db.apiKey.findUnique({
      where: { keyHash },
      include: { user: { include: { realm: true } } },
    });
    if (!row) return null;
    return { user: toUser(row.user), realm: toRealm(row.user.realm) };
  }
}
