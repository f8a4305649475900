import { jsonText } from '@confab/zulip';
import type { Role } from '@confab/identity';
import type { Store } from './store.js';
import { crossRealmBotRecord } from './system-bots.js';
import type { ProfileFieldValue, User } from './types.js';
import { apiUserRecord } from './users.js';

/** Everything the person dicts of an organization are made of, read at one fingerprint. */
export interface PeopleSnapshot {
  /** Every user but the system bots, in id order. */
  users: User[];
  systemBots: User[];
  profileValues: ProfileFieldValue[];
}

/** Reads an organization's people (the cache's source; the users store implements it). */
export interface PeopleSource {
  /**
   * A value that changes whenever any of the organization's users or their profile values is written, committed
   * ones only (any replica's write). Read before the snapshot it stands for.
   */
  fingerprint(realmId: number): Promise<string>;
  snapshot(realmId: number): Promise<PeopleSnapshot>;
}

interface Entry {
  fingerprint: string;
  snapshot: Promise<PeopleSnapshot>;
  /** Serialized person dicts by view (client_gravatar, the viewer's role). */
  texts: Map<string, Serialized>;
}

/**
 * An organization's people between their changes (docs/architecture.md, "Initial state"): the users, their profile
 * values and their serialized person dicts, kept per organization while its fingerprint stays the same. Each
 * /register reads the fingerprint (one small statement) instead of every user; a change by any replica changes the
 * fingerprint, so the next register after a user's own change shows it, whichever replica serves it.
 */
export class PeopleCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly maxRealms = 64) {}

  async snapshot(source: PeopleSource, realmId: number): Promise<PeopleSnapshot> {
    return (await this.entry(source, realmId)).snapshot;
  }

  /**
   * `realm_users`, `realm_non_active_users` and `cross_realm_bots` as `viewer` sees them: the dicts of everyone
   * else as the viewer's role sees them (serialized once per role), the viewer's own as they see it.
   */
  async realmUsers(
    source: PeopleSource,
    realmId: number,
    clientGravatar: boolean,
    viewer: User,
  ): Promise<Record<string, unknown>> {
    const entry = await this.entry(source, realmId);
    const people = await entry.snapshot;
    const key = `${clientGravatar ? 1 : 0}:${viewer.role}`;
    let texts = entry.texts.get(key);
    if (!texts) {
      texts = serialize(people, clientGravatar, viewer.role);
      entry.texts.set(key, texts);
    }
    let active = jsonText(texts.active);
    let inactive = jsonText(texts.inactive);
    const own = texts.positions.get(viewer.id);
    if (own) {
      // The list as everyone else sees it, with the viewer's own dict cut in where theirs stands.
      const [isActive, from, to] = own;
      const text = JSON.stringify(recordOf(people, own[3], clientGravatar, { userId: viewer.id, role: viewer.role }));
      const list = isActive ? texts.active : texts.inactive;
      const spliced = jsonText(list.subarray(0, from), text, list.subarray(to));
      if (isActive) active = spliced;
      else inactive = spliced;
    }
    return {
      realm_users: active,
      realm_non_active_users: inactive,
      cross_realm_bots: people.systemBots.map((bot) => crossRealmBotRecord(bot, clientGravatar)),
    };
  }

  private async entry(source: PeopleSource, realmId: number): Promise<Entry> {
    const fingerprint = await source.fingerprint(realmId);
    const hit = this.entries.get(realmId);
    if (hit && hit.fingerprint === fingerprint) {
      // Most recently used last (the oldest goes first when the cache is full).
      this.entries.delete(realmId);
      this.entries.set(realmId, hit);
      return hit;
    }
    const entry: Entry = { fingerprint, snapshot: source.snapshot(realmId), texts: new Map() };
    this.entries.delete(realmId);
    if (this.entries.size >= this.maxRealms) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(realmId, entry);
    // A failed read is not kept: the next register reads again.
    entry.snapshot.catch(() => {
      if (this.entries.get(realmId) === entry) this.entries.delete(realmId);
    });
    return entry;
  }
}

/**
 * An organization's person dicts as one view sees them: the active and the deactivated lists as UTF-8 JSON (made once
 * per fingerprint, written into each answer as they are), and where each user's dict is in its list (byte offsets),
 * so the viewer's own can be cut in.
 */
interface Serialized {
  active: Uint8Array;
  inactive: Uint8Array;
  positions: Map<number, [isActive: boolean, from: number, to: number, user: User]>;
}

/** The profile values by user, each as Zulip's profile_data. */
function profileDataByUser(values: readonly ProfileFieldValue[]) {
  const out = new Map<number, Record<string, { value: string; rendered_value?: string }>>();
  for (const v of values) {
    let data = out.get(v.userId);
    if (!data) out.set(v.userId, (data = {}));
    data[String(v.fieldId)] =
      v.renderedValue === null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue };
  }
  return out;
}

const profileCache = new WeakMap<PeopleSnapshot, ReturnType<typeof profileDataByUser>>();

function recordOf(people: PeopleSnapshot, user: User, clientGravatar: boolean, viewer: { userId: number; role: Role }) {
  let profiles = profileCache.get(people);
  if (!profiles) profileCache.set(people, (profiles = profileDataByUser(people.profileValues)));
  return apiUserRecord(user, { clientGravatar, includeCustomProfileFields: true, viewer }, profiles.get(user.id) ?? {});
}

function serialize(people: PeopleSnapshot, clientGravatar: boolean, role: Role): Serialized {
  // Seen by someone of this role who is none of them (their own dict is made for them).
  const viewer = { userId: 0, role };
  const lists = { active: { texts: [] as string[], bytes: 1 }, inactive: { texts: [] as string[], bytes: 1 } };
  const positions: Serialized['positions'] = new Map();
  for (const user of people.users) {
    const list = user.isActive ? lists.active : lists.inactive;
    if (list.texts.length > 0) list.bytes += 1; // the comma before it
    const text = JSON.stringify(recordOf(people, user, clientGravatar, viewer));
    const bytes = Buffer.byteLength(text);
    positions.set(user.id, [user.isActive, list.bytes, list.bytes + bytes, user]);
    list.texts.push(text);
    list.bytes += bytes;
  }
  const bytesOf = (texts: string[]) => Buffer.from(`[${texts.join(',')}]`);
  return { active: bytesOf(lists.active.texts), inactive: bytesOf(lists.inactive.texts), positions };
}

/** The stores as the cache reads them; the fingerprint read once per source (one request). */
export function peopleSource(store: Pick<Store, 'users' | 'profileFields'>): PeopleSource {
  let fingerprint: Promise<string> | undefined;
  return {
    fingerprint: (realmId) => (fingerprint ??= store.users.peopleFingerprint(realmId)),
    async snapshot(realmId) {
      const [users, systemBots] = await Promise.all([store.users.inRealm(realmId), store.users.systemBots(realmId)]);
      return { users, systemBots, profileValues: await store.profileFields.valuesOf(users.map((u) => u.id)) };
    },
  };
}

/** The organization's users by id (system bots aside), from the cache. */
export async function usersById(cache: PeopleCache, source: PeopleSource, realmId: number) {
  const snapshot = await cache.snapshot(source, realmId);
  let map = byIdCache.get(snapshot);
  if (!map) byIdCache.set(snapshot, (map = new Map(snapshot.users.map((u) => [u.id, u]))));
  return map;
}
const byIdCache = new WeakMap<PeopleSnapshot, Map<number, User>>();
