import type { DirectoryPort } from '../domain/people.js';
import type { Channel, CustomEmojiSet, Group, Realm, User } from '../domain/types.js';
import type { LinkifierStore } from '../domain/realm-content-store.js';
import type { PersonalFilters } from '../domain/personal-filters.js';
import type { ChannelsRepository } from './channels.repository.js';
import type { ReadModelRepository } from './readmodel.repository.js';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A small TTL map; a TTL of 0 disables caching. */
class TtlCache<K, V> {
  private readonly map = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    // Absence is not cached: what is missing now may be created by another replica a moment later.
    if (this.ttlMs > 0 && value !== null) {
      if (this.map.size >= this.maxEntries) this.map.clear();
      this.map.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  /** Many keys at once: the cached ones from memory, the rest with one load (and cached). */
  async getMany(keys: readonly K[], loadMany: (missing: K[]) => Promise<Map<K, V>>): Promise<V[]> {
    const now = Date.now();
    const out: V[] = [];
    const missing: K[] = [];
    for (const key of new Set(keys)) {
      const hit = this.map.get(key);
      if (hit && hit.expiresAt > now) out.push(hit.value);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    for (const [key, value] of await loadMany(missing)) {
      out.push(value);
      if (this.ttlMs > 0 && value !== null) {
        if (this.map.size >= this.maxEntries) this.map.clear();
        this.map.set(key, { value, expiresAt: now + this.ttlMs });
      }
    }
    return out;
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.map) if (predicate(entry.value)) this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}

/** What a replica forgets, by kind, as announced to the other replicas (ReplicaForgets). */
export interface DirectoryForgets {
  on(kind: string, forget: (key: string) => void): DirectoryForgets;
  forget(kind: string, key: string | number): void;
}

/** A Directory of one process alone: nothing to tell. */
function localForgets(): DirectoryForgets {
  const handlers = new Map<string, (key: string) => void>();
  const forgets: DirectoryForgets = {
    on: (kind, forget) => (handlers.set(kind, forget), forgets),
    forget: (kind, key) => handlers.get(kind)?.(String(key)),
  };
  return forgets;
}

/**
 * Organization, user, group and channel facts read on every request, cached for a short time. This process
 * forgets an entry as soon as it changes it or hears of a change, and tells the other replicas (`forgets`), which
 * forget theirs when the notice arrives (docs/architecture.md, "Replicas"); the TTL bounds what a lost notice costs.
 */
export class Directory implements DirectoryPort {
  private readonly realms: TtlCache<number, Realm | null>;
  private readonly users: TtlCache<number, User | null>;
  private readonly groups: TtlCache<number, Map<number, Group>>;
  private readonly emoji: TtlCache<number, CustomEmojiSet>;
  private readonly filters: TtlCache<number, PersonalFilters>;
  private readonly linkifiers: TtlCache<number, { pattern: string; urlTemplate: string }[]>;
  private readonly channelsById: TtlCache<number, Channel | null>;
  private readonly channelsByName: TtlCache<string, Channel | null>;

  constructor(
    private readonly readModel: ReadModelRepository,
    private readonly channels: ChannelsRepository,
    ttlMs: number,
    private readonly linkifierSource: Pick<LinkifierStore, 'list'>,
    private readonly forgets: DirectoryForgets = localForgets(),
  ) {
    this.linkifiers = new TtlCache(ttlMs);
    this.realms = new TtlCache(ttlMs);
    this.users = new TtlCache(ttlMs);
    this.groups = new TtlCache(ttlMs);
    this.emoji = new TtlCache(ttlMs);
    this.filters = new TtlCache(ttlMs);
    this.channelsById = new TtlCache(ttlMs);
    this.channelsByName = new TtlCache(ttlMs);
    forgets
      .on('realm', (id) => this.realms.delete(Number(id)))
      .on('user', (id) => this.users.delete(Number(id)))
      .on('groups', (realmId) => this.groups.delete(Number(realmId)))
      .on('emoji', (realmId) => this.emoji.delete(Number(realmId)))
      .on('filters', (realmId) => this.filters.delete(Number(realmId)))
      .on('linkifiers', (realmId) => this.linkifiers.delete(Number(realmId)))
      .on('channel', (id) => {
        this.channelsById.delete(Number(id));
        this.channelsByName.deleteWhere((c) => c?.id === Number(id));
      })
      .on('channelName', (key) => this.channelsByName.delete(key));
  }

  realm(id: number): Promise<Realm | null> {
    return this.realms.get(id, () => this.readModel.realmById(id));
  }

  user(id: number): Promise<User | null> {
    return this.users.get(id, () => this.readModel.userById(id));
  }

  /** Every group of an organization, by id. */
  groupsOf(realmId: number): Promise<Map<number, Group>> {
    return this.groups.get(
      realmId,
      async () => new Map((await this.readModel.groupsInRealm(realmId)).map((g) => [g.id, g])),
    );
  }

  /** The organization's custom emoji. */
  realmEmoji(realmId: number): Promise<CustomEmojiSet> {
    return this.emoji.get(realmId, () => this.readModel.realmEmoji(realmId));
  }

  /** Muted users and alert words of an organization's users. */
  personalFilters(realmId: number): Promise<PersonalFilters> {
    return this.filters.get(realmId, () => this.readModel.personalFilters(realmId));
  }

  linkifiersOf(realmId: number): Promise<{ pattern: string; urlTemplate: string }[]> {
    return this.linkifiers.get(realmId, () => this.linkifierSource.list(realmId));
  }

  forgetLinkifiers(realmId: number): void {
    this.forgets.forget('linkifiers', realmId);
  }

  forgetPersonalFilters(realmId: number): void {
    this.forgets.forget('filters', realmId);
  }

  forgetRealmEmoji(realmId: number): void {
    this.forgets.forget('emoji', realmId);
  }

  /** The organization's users among `ids` (unknown ids left out), as `user` would give them one by one. */
  async usersByIds(realmId: number, ids: readonly number[]): Promise<User[]> {
    const found = await this.users.getMany(
      ids,
      async (missing) => new Map((await this.readModel.usersByIds(realmId, missing)).map((u) => [u.id, u])),
    );
    return found.filter((u): u is User => u !== null && u.realmId === realmId);
  }

  /** The channels among `ids` (unknown ids left out), as `channel` would give them one by one. */
  async channelsByIds(ids: readonly number[]): Promise<Channel[]> {
    const found = await this.channelsById.getMany(
      ids,
      async (missing) => new Map((await this.channels.channelsByIds(missing)).map((c) => [c.id, c])),
    );
    return found.filter((c): c is Channel => c !== null).sort((a, b) => a.id - b.id);
  }

  channel(id: number): Promise<Channel | null> {
    return this.channelsById.get(id, () => this.channels.channelById(id));
  }

  channelByName(realmId: number, name: string): Promise<Channel | null> {
    return this.channelsByName.get(`${realmId}:${name.toLowerCase()}`, () =>
      this.channels.channelByName(realmId, name),
    );
  }

  forgetRealm(id: number): void {
    this.forgets.forget('realm', id);
  }

  forgetUser(id: number): void {
    this.forgets.forget('user', id);
  }

  forgetGroups(realmId: number): void {
    this.forgets.forget('groups', realmId);
  }

  /**
   * Forgets what this process knows of an organization's people: another replica applied a change to them (a
   * user's own recent change, see docs/architecture.md) and this cache did not hear of it.
   */
  forgetPeopleOf(realmId: number): void {
    this.realms.delete(realmId);
    this.groups.delete(realmId);
    this.emoji.delete(realmId);
    this.filters.delete(realmId);
    this.users.clear();
  }

  forgetChannel(id: number): void {
    this.forgets.forget('channel', id);
  }

  /** A newly created channel may have been cached as missing under its name. */
  forgetChannelName(realmId: number, name: string): void {
    this.forgets.forget('channelName', `${realmId}:${name.toLowerCase()}`);
  }
}
