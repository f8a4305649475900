import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { MissingFetcher } from '../domain/context.js';
import type { Tx } from '../repositories/prisma.js';
import type { ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Store } from '../repositories/store.js';

/**
 * Reads organizations and users (internal.SettingsReader), and custom emoji, muted users and alert words, from the settings
 * service's internal API (its own records, in id order).
 */
export class SettingsClient extends internal.SettingsReader {
  constructor(baseUrl: string, secret: string) {
    super(new ServiceClient({ caller: 'messaging', baseUrl, secret }));
  }

  /** Organizations' custom emoji, in organization id order. */
  async realmEmojiAfter(afterId: number) {
    const page = await this.settings.call('GET', '/realm_emoji', internal.realmEmojiPage, {
      query: { after_id: afterId },
    });
    return page.realms;
  }

  /** Users' muted users and alert words, in user id order. */
  async personalFiltersAfter(afterId: number) {
    const page = await this.settings.call('GET', '/personal_filters', internal.personalFiltersPage, {
      query: { after_id: afterId },
    });
    return page.users;
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
      const after = await this.copyPages(
        (after) => this.client.realmsAfter(after),
        (r) => r.realm_id,
        (tx, realm) => this.readModel.upsertRealm(tx, realm),
      );
      this.logger.info({ after }, 'organizations backfilled from settings');
    }
    if (empty.users) {
      const after = await this.copyPages(
        (after) => this.client.usersAfter(after),
        (u) => u.user_id,
        async (tx, user) => {
          await this.readModel.upsertUser(tx, user);
        },
      );
      this.logger.info({ after }, 'users backfilled from settings');
    }
    if (empty.realmEmoji) {
      await this.copyPages(
        (after) => this.client.realmEmojiAfter(after),
        (r) => r.realm_id,
        (tx, r) => this.readModel.upsertRealmEmoji(tx, r.realm_id, Object.values(r.realm_emoji)),
      );
    }
    if (empty.personalFilters) {
      await this.copyPages(
        (after) => this.client.personalFiltersAfter(after),
        (u) => u.user_id,
        async (tx, u) => {
          for (const mutedUserId of u.muted_user_ids)
            await this.readModel.addMutedUser(tx, { userId: u.user_id, mutedUserId, realmId: u.realm_id });
          if (u.alert_words.length > 0) await this.readModel.setAlertWords(tx, u.user_id, u.realm_id, u.alert_words);
        },
      );
    }
  }

  /** Copies settings' pages (in id order, until an empty one), one transaction per page; the last id copied. */
  /** A copy's transaction, through the store's one way to write (it has no events of its own). */
  private write(copy: (tx: Tx) => Promise<unknown>): Promise<void> {
    return this.store.transaction(async (tx) => {
      await copy(tx);
      return { result: undefined, events: [] };
    });
  }

  private async copyPages<T>(
    page: (afterId: number) => Promise<T[]>,
    idOf: (record: T) => number,
    copy: (tx: Tx, record: T) => Promise<void>,
  ): Promise<number> {
    let after = 0;
    for (;;) {
      const records = await page(after);
      if (records.length === 0) return after;
      await this.write(async (tx) => {
        for (const record of records) await copy(tx, record);
      });
      after = idOf(records[records.length - 1]!);
    }
  }

  async user(id: number): Promise<void> {
    const users = await this.client.usersAfter(id - 1).catch(() => []);
    const user = users.find((u) => u.user_id === id);
    if (user) await this.write((tx) => this.readModel.upsertUser(tx, user));
  }

  async users(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const wanted = new Set(ids);
    const page = await this.client.usersAfter(Math.min(...ids) - 1).catch(() => []);
    const found = page.filter((u) => wanted.has(u.user_id));
    if (found.length > 0) {
      await this.write(async (tx) => {
        for (const user of found) await this.readModel.upsertUser(tx, user);
      });
    }
  }

  async realm(id: number): Promise<void> {
    const realms = await this.client.realmsAfter(id - 1).catch(() => []);
    const realm = realms.find((r) => r.realm_id === id);
    if (realm) await this.write((tx) => this.readModel.upsertRealm(tx, realm));
  }
}
