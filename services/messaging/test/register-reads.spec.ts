import type { ChannelStore } from '../src/domain/channel-store';
import { registerReads } from '../src/domain/register-reads';
import type { Channel, Subscription } from '../src/domain/types';

const channel = (id: number) => ({ id, realmId: 1, name: `c${id}` }) as Channel;
const sub = (channelId: number, active: boolean) => ({ userId: 7, channelId, active }) as Subscription;

/** A store that answers from fixed data and counts every read it is asked for. */
function countingStore() {
  const calls: string[] = [];
  const channels = [channel(1), channel(2), channel(3)];
  const subs = [sub(1, true), sub(2, false)];
  const subscribers = new Map([
    [1, [7, 8]],
    [3, [8]],
  ]);
  const store = {
    channelsInRealm: (realmId: number) => (calls.push(`channelsInRealm ${realmId}`), Promise.resolve(channels)),
    channelsByIds: (ids: number[]) => (
      calls.push(`channelsByIds ${ids}`),
      Promise.resolve(channels.filter((c) => ids.includes(c.id)))
    ),
    subscriptionsOfUser: (userId: number, o: { includeInactive?: boolean } = {}) => (
      calls.push(`subscriptionsOfUser ${userId}`),
      Promise.resolve(subs.filter((s) => o.includeInactive || s.active))
    ),
    subscriptionsFor: (userId: number) => (calls.push(`subscriptionsFor ${userId}`), Promise.resolve(new Map())),
    subscribers: (ids: number[]) => (calls.push(`subscribers ${ids}`), Promise.resolve(subscribers)),
    recentlyActive: (ids: number[]) => (calls.push(`recentlyActive ${ids}`), Promise.resolve(new Set([3]))),
    subscriberCount: () => (calls.push('subscriberCount'), Promise.resolve(5)),
    subscriberCounts: (ids: number[]) => (
      calls.push(`subscriberCounts ${ids}`),
      Promise.resolve(new Map(ids.map((id) => [id, subscribers.get(id)?.length ?? 0])))
    ),
  };
  return { calls, store: store as unknown as ChannelStore };
}

describe("one register's channel reads", () => {
  it('reads the organization, its subscribers, its activity and the user once, and answers each subset from them', async () => {
    const { calls, store } = countingStore();
    const reads = registerReads(store, 1, 7);
    const [inRealm, some, active, all, mine, forSome, subscribers, recent] = await Promise.all([
      reads.channelsInRealm(1),
      reads.channelsByIds([3, 1]),
      reads.subscriptionsOfUser(7),
      reads.subscriptionsOfUser(7, { includeInactive: true }),
      reads.subscriptionsFor(7, [2]),
      reads.subscriptionsFor(7, [3]),
      reads.subscribers([1, 2]),
      reads.recentlyActive([1, 3]),
    ]);
    await reads.channelsByIds([1]);
    await reads.subscribers([3]);
    expect(inRealm.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(some.map((c) => c.id)).toEqual([1, 3]);
    expect(active.map((s) => s.channelId)).toEqual([1]);
    expect(all.map((s) => s.channelId)).toEqual([1, 2]);
    expect([...mine.keys()]).toEqual([2]);
    expect([...forSome.keys()]).toEqual([]);
    expect(subscribers).toEqual(new Map([[1, [7, 8]]]));
    expect(recent).toEqual(new Set([3]));
    expect(calls.sort()).toEqual([
      'channelsInRealm 1',
      'recentlyActive 1,2,3',
      'subscribers 1,2,3',
      'subscriptionsOfUser 7',
    ]);
  });

  it("counts every channel's subscribers once, and answers each subset from that count", async () => {
    const { calls, store } = countingStore();
    const reads = registerReads(store, 1, 7);
    const [some, others] = await Promise.all([reads.subscriberCounts([1, 2]), reads.subscriberCounts([3])]);
    expect(some).toEqual(
      new Map([
        [1, 2],
        [2, 0],
      ]),
    );
    expect(others).toEqual(new Map([[3, 1]]));
    expect(calls.sort()).toEqual(['channelsInRealm 1', 'subscriberCounts 1,2,3']);
  });

  it("sends reads of other users, other organizations' channels and other methods to the store", async () => {
    const { calls, store } = countingStore();
    const reads = registerReads(store, 1, 7);
    await reads.subscriptionsOfUser(8);
    await reads.channelsInRealm(2);
    await reads.channelsByIds([1, 99]);
    expect(await reads.subscriberCount(1)).toBe(5);
    expect(calls).toEqual([
      'subscriptionsOfUser 8',
      'channelsInRealm 2',
      'channelsInRealm 1',
      'channelsByIds 1,99',
      'subscriberCount',
    ]);
  });
});
