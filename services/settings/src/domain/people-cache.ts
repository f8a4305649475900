import { jsonText, type JsonText } from '@confab/zulip';
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
  /** Serialized person dicts by view (`viewKey`). */
  texts: Map<string, Serialized>;
}

/** How a list of people is asked for: as /register's realm_users always are, or as GET /users chooses. */
export interface PeopleView {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

/** Who asks: their own dict shows what only they (and administrators) see. */
export interface Viewer {
  id: number;
  role: Role;
}

const REGISTER_VIEW = (clientGravatar: boolean): PeopleView => ({ clientGravatar, includeCustomProfileFields: true });

/**
 * An organization's people between their changes (docs/architecture.md, "Initial state"): the users, their profile
 * values and their serialized person dicts, kept per organization while its fingerprint stays the same. Each
 * /register or GET /users reads the fingerprint (one small statement) instead of every user; a change by any replica
 * changes the fingerprint, so the next request after a user's own change shows it, whichever replica serves it.
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
    viewer: Viewer,
  ): Promise<Record<string, unknown>> {
    const { people, texts, own } = await this.view(source, realmId, REGISTER_VIEW(clientGravatar), viewer);
    return {
      realm_users: listFor(texts.active, own?.active, own?.text),
      realm_non_active_users: listFor(texts.inactive, own?.inactive, own?.text),
      cross_realm_bots: people.systemBots.map((bot) => crossRealmBotRecord(bot, clientGravatar)),
    };
  }

  /** GET /users' `members`: every user of the organization (system bots aside) in id order, as `viewer` sees them. */
  async members(source: PeopleSource, realmId: number, view: PeopleView, viewer: Viewer): Promise<JsonText> {
    const { texts, own } = await this.view(source, realmId, view, viewer);
    return listFor(texts.all, own?.all, own?.text);
  }

  /** The serialized lists of one view, and the viewer's own dict with its places in them. */
  private async view(source: PeopleSource, realmId: number, view: PeopleView, viewer: Viewer) {
    const entry = await this.entry(source, realmId);
    const people = await entry.snapshot;
    const key = `${view.clientGravatar ? 1 : 0}${view.includeCustomProfileFields ? 1 : 0}:${viewer.role}`;
    let texts = entry.texts.get(key);
    if (!texts) {
      texts = serialize(people, view, viewer.role);
      entry.texts.set(key, texts);
    }
    const place = texts.positions.get(viewer.id);
    const own = place && {
      ...place,
      text: JSON.stringify(recordOf(people, place.user, view, { userId: viewer.id, role: viewer.role })),
    };
    return { people, texts, own };
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
 * An organization's person dicts as one view sees them: the active, the deactivated and all of them (id order) as
 * UTF-8 JSON lists (made once per fingerprint, written into each answer as they are), and where each user's dict is
 * in each list (byte offsets), so the viewer's own can be cut in.
 */
interface Serialized {
  active: Uint8Array;
  inactive: Uint8Array;
  all: Uint8Array;
  positions: Map<number, Place>;
}

/** A user's dict's place (byte offsets) in the lists that hold it. */
interface Place {
  user: User;
  active?: [from: number, to: number];
  inactive?: [from: number, to: number];
  all: [from: number, to: number];
}

/** A list as the viewer sees it: as everyone else does, with their own dict cut in where theirs stands. */
function listFor(list: Uint8Array, place: [number, number] | undefined, own: string | undefined): JsonText {
  if (!place || own === undefined) return jsonText(list);
  return jsonText(list.subarray(0, place[0]), own, list.subarray(place[1]));
}

/** The profile values by user, each as Zulip's profile_data. */
export function profileDataByUser(values: readonly ProfileFieldValue[]) {
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

function recordOf(people: PeopleSnapshot, user: User, view: PeopleView, viewer: { userId: number; role: Role }) {
  let profiles = profileCache.get(people);
  if (!profiles) profileCache.set(people, (profiles = profileDataByUser(people.profileValues)));
  return apiUserRecord(user, { ...view, viewer }, profiles.get(user.id) ?? {});
}

/** A JSON list being written: its elements' texts and its length in bytes so far. */
class ListWriter {
  readonly texts: string[] = [];
  private bytes = 1; // the opening bracket

  /** Adds an element; its place (byte offsets) in the list. */
  add(text: string): [number, number] {
    if (this.texts.length > 0) this.bytes += 1; // the comma before it
    const from = this.bytes;
    this.bytes += Buffer.byteLength(text);
    this.texts.push(text);
    return [from, this.bytes];
  }

  done(): Uint8Array {
    return Buffer.from(`[${this.texts.join(',')}]`);
  }
}

function serialize(people: PeopleSnapshot, view: PeopleView, role: Role): Serialized {
  // Seen by someone of this role who is none of them (their own dict is made for them).
  const viewer = { userId: 0, role };
  const [active, inactive, all] = [new ListWriter(), new ListWriter(), new ListWriter()];
  const positions = new Map<number, Place>();
  for (const user of people.users) {
    const text = JSON.stringify(recordOf(people, user, view, viewer));
    const place: Place = { user, all: all.add(text) };
    if (user.isActive) place.active = active.add(text);
    else place.inactive = inactive.add(text);
    positions.set(user.id, place);
  }
  return { active: active.done(), inactive: inactive.done(), all: all.done(), positions };
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
