import type { RedisClient, ReplicaForgets } from '@confab/runtime';
import type { contracts } from '@confab/events';

/** Zulip's Message.EMPTY_TOPIC_FALLBACK_NAME, until the realm is known here. */
export const DEFAULT_EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
const CACHE_MS = 30_000;

/** A group as this service last saw it (to tell what an update changed, and to re-add a reactivated group). */
export interface GroupSnapshot {
  group: contracts.GroupRecord;
  members: number[];
  subgroups: number[];
}

/**
 * The little this service keeps about other services' data, in Redis beside the queues: each realm's name for the
 * empty topic (realm.* events) and the last state of each user group (group.* events).
 */
export class ReadModel {
  private readonly realmCache = new Map<number, { value: string; until: number }>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    /** The other replicas forget their copy of a realm this one saved (only one consumes each event). */
    private readonly forgets?: ReplicaForgets,
  ) {
    forgets?.on('realm', (id) => this.realmCache.delete(Number(id)));
  }

  async saveRealm(realm: contracts.RealmRecord): Promise<void> {
    await this.redis.hset(`${this.prefix}realm:${realm.realm_id}`, 'etn', realm.empty_topic_display_name);
    this.forgets?.forget('realm', realm.realm_id);
    this.realmCache.set(realm.realm_id, { value: realm.empty_topic_display_name, until: Date.now() + CACHE_MS });
  }

  async emptyTopicDisplayName(realmId: number): Promise<string> {
    const hit = this.realmCache.get(realmId);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = (await this.redis.hget(`${this.prefix}realm:${realmId}`, 'etn')) ?? DEFAULT_EMPTY_TOPIC_DISPLAY_NAME;
    this.realmCache.set(realmId, { value, until: Date.now() + CACHE_MS });
    return value;
  }

  async group(groupId: number): Promise<GroupSnapshot | null> {
    const raw = await this.redis.get(`${this.prefix}grp:${groupId}`);
    return raw ? (JSON.parse(raw) as GroupSnapshot) : null;
  }

  async saveGroup(snapshot: GroupSnapshot): Promise<void> {
    await this.redis.set(`${this.prefix}grp:${snapshot.group.group_id}`, JSON.stringify(snapshot));
  }
}
