import { contracts, parseEnvelope } from '@confab/events';
import type { ImportEvent, LoaderProgress, ServiceLoader, StageInput, StageResult } from '@confab/porting';
import type { RedisClient } from '@confab/runtime';
import { applyMembership } from '../events/groups.js';
import { ReadModel } from '../store/readmodel.js';

/**
 * The events service's part of an import (docs/architecture.md, "Moving organizations in and out"): what its
 * consumers keep of others' facts — the organization's name for the empty topic, each group as last seen — from the
 * imported organization's events, in its Redis (nothing transactional: written before the import's commit point,
 * removed again when the import is rolled back; keys of ids no organization has are never read).
 */
export class EventsImportLoader implements ServiceLoader {
  private readonly readModel: ReadModel;
  private readonly keys: string[] = [];

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.readModel = new ReadModel(redis, prefix);
  }

  allocate(request: Record<string, number>): Promise<Record<string, number[]>> {
    if (Object.keys(request).length > 0) return Promise.reject(new Error('events allocates nothing'));
    return Promise.resolve({});
  }

  async apply(events: ImportEvent[]): Promise<void> {
    for (const raw of events) {
      if (raw.type === contracts.realmCreated.type) {
        const { realm } = parseEnvelope(contracts.realmCreated, raw).payload;
        await this.readModel.saveRealm(realm);
        this.keys.push(`${this.prefix}realm:${realm.realm_id}`);
      } else if (raw.type === contracts.groupCreated.type) {
        const { group, direct_members, direct_subgroups } = parseEnvelope(contracts.groupCreated, raw).payload;
        await this.readModel.saveGroup({ group, members: direct_members, subgroups: direct_subgroups });
        this.keys.push(`${this.prefix}grp:${group.group_id}`);
      } else if (raw.type === contracts.groupMembersChanged.type) {
        for (const change of parseEnvelope(contracts.groupMembersChanged, raw).payload.changes) {
          const snapshot = await this.readModel.group(change.group_id);
          if (snapshot) await this.readModel.saveGroup(applyMembership(snapshot, change));
        }
      }
    }
  }

  stage(_input: StageInput, _progress: (p: LoaderProgress) => void): Promise<StageResult> {
    return Promise.resolve({ counts: {}, events: [] });
  }

  commit(): Promise<void> {
    this.keys.length = 0;
    return Promise.resolve();
  }

  async abort(): Promise<void> {
    // Keys one at a time: on a Redis Cluster the realm and group keys need not share a slot.
    for (const key of this.keys.splice(0)) await this.redis.del(key);
  }

  purge(_realmId: number): Promise<void> {
    return Promise.resolve();
  }

  realms(): Promise<number[]> {
    return Promise.resolve([]);
  }

  async close(): Promise<void> {
    await this.abort();
    this.redis.disconnect();
  }
}
