import { PRISMA_TRANSACTION_OPTIONS, UnitOfWork } from '@confab/events';
import { pingDatabase } from '@confab/runtime';
import { AlreadyExists, type Database, type OwnUserRead, type Store, type Written } from '../domain/store.js';
import { PrismaRealmStore, PrismaUserStore } from './accounts.store.js';
import {
  PrismaAlertWordStore,
  PrismaBotStorageStore,
  PrismaMutedUserStore,
  PrismaUserStatusStore,
} from './personal-state.store.js';
import {
  PrismaEmailChangeStore,
  PrismaMeetingTokenStore,
  PrismaNavigationViewStore,
  PrismaUserSettingsStore,
} from './personal.store.js';
import { isUniqueViolation, type Client, type Db, type Tx } from './prisma.js';
import { PrismaBotServiceStore, PrismaProfileFieldStore } from './organization.store.js';
import { PrismaRealmDomainStore, PrismaRealmEmojiStore, PrismaSystemGroupStore } from './realm-content.store.js';

export function storeOn(client: Client): Store {
  return {
    realms: new PrismaRealmStore(client),
    users: new PrismaUserStore(client),
    settings: new PrismaUserSettingsStore(client),
    navigationViews: new PrismaNavigationViewStore(client),
    emailChanges: new PrismaEmailChangeStore(client),
    meetingTokens: new PrismaMeetingTokenStore(client),
    statuses: new PrismaUserStatusStore(client),
    mutedUsers: new PrismaMutedUserStore(client),
    alertWords: new PrismaAlertWordStore(client),
    emoji: new PrismaRealmEmojiStore(client),
    domains: new PrismaRealmDomainStore(client),
    botStorage: new PrismaBotStorageStore(client),
    systemGroups: new PrismaSystemGroupStore(client),
    botServices: new PrismaBotServiceStore(client),
    profileFields: new PrismaProfileFieldStore(client),
  };
}

/** The settings database: reads on the pool, writes through @confab/events' unit of work. */
export class PrismaDatabase implements Database {
  readonly store: Store;
  private readonly unit: UnitOfWork<Tx>;

  constructor(
    readonly db: Db,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    afterCommit: () => void = () => undefined,
    /** GET /users/me's read on plain SQL (SqlOwnUserRead); without it, the stores' two Prisma reads. */
    private readonly ownUserRead?: OwnUserRead,
  ) {
    this.store = storeOn(db);
    this.unit = UnitOfWork.prisma<Tx>((body) => db.$transaction(body, PRISMA_TRANSACTION_OPTIONS), afterCommit);
  }

  async write<T>(fn: (store: Store) => Promise<Written<T>>): Promise<T> {
    try {
      return await this.unit.run((tx) => fn(storeOn(tx)));
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExists();
      throw err;
    }
  }

  async ownUser(userId: number): ReturnType<OwnUserRead['ownUser']> {
    if (this.ownUserRead) return this.ownUserRead.ownUser(userId);
    const user = await this.store.users.byId(userId);
    return user ? { user, profileValues: await this.store.profileFields.valuesOf([user.id]) } : null;
  }

  async presenceFacts(userId: number): ReturnType<OwnUserRead['presenceFacts']> {
    if (this.ownUserRead) return this.ownUserRead.presenceFacts(userId);
    const user = await this.store.users.byId(userId);
    const realm = user && (await this.store.realms.byId(user.realmId));
    if (!user || !realm) return null;
    return { user, realm, settingValues: (await this.store.settings.get(userId)).values };
  }

  ping(): Promise<boolean> {
    return pingDatabase(this.db);
  }
}
