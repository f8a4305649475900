import { contracts } from '@confab/events';
import { signIdentity } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { MissingFetcher } from '../domain/context.js';
import type { ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Store } from '../repositories/store.js';

type Page<K extends string, T> = Record<K, T[]>;

/** Reads users and organizations from the settings service's internal API (its own records, in id order). */
export class SettingsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  private async get<T>(path: string): Promise<T> {
    const token = signIdentity({ kind: 'service', service: 'messaging' }, this.secret);
    const response = await fetch(`${this.baseUrl}/internal${path}`, { headers: { 'x-confab-identity': token } });
    if (!response.ok) throw new Error(`settings ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  async realmsAfter(afterId: number): Promise<contracts.RealmRecord[]> {
    const page = await this.get<Page<'realms', unknown>>(`/realms?after_id=${afterId}`);
    return page.realms.map((r) => contracts.realmRecord.parse(r));
  }

  async usersAfter(afterId: number): Promise<contracts.UserRecord[]> {
    const page = await this.get<Page<'users', unknown>>(`/users?after_id=${afterId}`);
    return page.users.map((u) => contracts.userRecord.parse(u));
  }
}

/**
 * Fills an empty read model from the settings service (a fresh database next to an existing organization), and
 * fetches single records that events have not delivered yet.
 */
export class Backfill implements MissingFetcher {
  constructor(
    private readonly client: SettingsClient,
    private readonly store: Store,
    private readonly readModel: ReadModelRepository,
    private readonly logger: Logger,
  ) {}

  async fillIfEmpty(): Promise<void> {
    const empty = await this.readModel.isEmpty();
    if (empty.realms) {
      let after = 0;
      for (;;) {
        const realms = await this.client.realmsAfter(after);
        if (realms.length === 0) break;
        await this.store.db.$transaction(async (tx) => {
          for (const realm of realms) await this.readModel.upsertRealm(tx, realm);
        });
        after = realms[realms.length - 1]!.realm_id;
      }
      this.logger.info({ after }, 'organizations backfilled from settings');
    }
    if (empty.users) {
      let after = 0;
      for (;;) {
        const users = await this.client.usersAfter(after);
        if (users.length === 0) break;
        await this.store.db.$transaction(async (tx) => {
          for (const user of users) await this.readModel.upsertUser(tx, user);
        });
        after = users[users.length - 1]!.user_id;
      }
      this.logger.info({ after }, 'users backfilled from settings');
    }
  }

  async user(id: number): Promise<void> {
    const users = await this.client.usersAfter(id - 1).catch(() => []);
    const user = users.find((u) => u.user_id === id);
    if (user) await this.store.db.$transaction((tx) => this.readModel.upsertUser(tx, user));
  }

  async realm(id: number): Promise<void> {
    const realms = await this.client.realmsAfter(id - 1).catch(() => []);
    const realm = realms.find((r) => r.realm_id === id);
    if (realm) await this.store.db.$transaction((tx) => this.readModel.upsertRealm(tx, realm));
  }
}
