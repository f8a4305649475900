import type { ChannelStore } from './channel-store.js';
import type { Channel, Subscription } from './types.js';

/** The promise of `read`, made on first use and shared by every later one. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= read());
}

/**
 * The channel store as one /register answer reads it: the organization's channels, their subscribers and recent
 * activity, and the user's own subscriptions are each read once, and every part of the answer (subscriptions,
 * unsubscribed, never_subscribed, streams) is served from those reads instead of asking again for its own subset.
 * A register made three channel reads, two subscription reads, three subscriber reads and two activity reads; each
 * is one round trip to PostgreSQL and, on this machine, most of its CPU (docs/architecture.md, "Initial state").
 * Reads of another organization or user go to the store itself.
 */
export function registerReads(store: ChannelStore, realmId: number, userId: number): ChannelStore {
  const channels = once(() => store.channelsInRealm(realmId));
  const byId = once(async () => new Map((await channels()).map((c) => [c.id, c])));
  const allIds = async () => (await channels()).map((c) => c.id);
  const subscribers = once(async () => store.subscribers(await allIds()));
  const counts = once(async () => store.subscriberCounts(await allIds()));
  const active = once(async () => store.recentlyActive(await allIds()));
  const own = once(() => store.subscriptionsOfUser(userId, { includeInactive: true }));
  /** The channels among `ids` when all are this organization's; null sends the read to the store. */
  const known = async (ids: readonly number[]): Promise<Channel[] | null> => {
    const map = await byId();
    return ids.every((id) => map.has(id)) ? [...new Set(ids)].sort((a, b) => a - b).map((id) => map.get(id)!) : null;
  };
  const reads: Partial<ChannelStore> = {
    channelsInRealm: (id) => (id === realmId ? channels() : store.channelsInRealm(id)),
    async channelsByIds(ids) {
      return (await known(ids)) ?? store.channelsByIds(ids);
    },
    async subscriptionsOfUser(id, options = {}) {
      if (id !== userId) return store.subscriptionsOfUser(id, options);
      const subs = await own();
      return options.includeInactive ? subs : subs.filter((s) => s.active);
    },
    async subscriptionsFor(id, channelIds) {
      if (id !== userId) return store.subscriptionsFor(id, channelIds);
      const wanted = new Set(channelIds);
      return new Map(
        (await own()).filter((s) => wanted.has(s.channelId)).map((s): [number, Subscription] => [s.channelId, s]),
      );
    },
    async subscribers(channelIds) {
      if (!(await known(channelIds))) return store.subscribers(channelIds);
      const all = await subscribers();
      const out = new Map<number, number[]>();
      for (const id of channelIds) {
        const ids = all.get(id);
        if (ids) out.set(id, ids);
      }
      return out;
    },
    async subscriberCounts(channelIds) {
      if (!(await known(channelIds))) return store.subscriberCounts(channelIds);
      const all = await counts();
      return new Map(channelIds.map((id) => [id, all.get(id) ?? 0]));
    },
    async recentlyActive(channelIds) {
      if (!(await known(channelIds))) return store.recentlyActive(channelIds);
      const all = await active();
      return new Set(channelIds.filter((id) => all.has(id)));
    },
  };
  // Every other method is the store's own (its prototype's, with the store as `this`).
  return new Proxy(store, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in reads) return reads[key as keyof ChannelStore];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
