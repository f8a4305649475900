import { invalid } from '@confab/errors';
import { accessChannelById, basicAccess } from './channel-access.js';
import { GroupValueFormatter, streamDict, subscriptionDict } from './channel-records.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin, isGuest } from './permissions.js';
import type { Channel } from './types.js';

/**
 * Subscriber counts of these channels, and their subscriber lists only when asked for: a count is one row per
 * channel, a list one per subscriber (thousands in a large organization).
 */
export async function subscriberFacts(domain: Domain, ids: readonly number[], withLists: boolean) {
  const [lists, counts] = await Promise.all([
    withLists ? domain.channels.subscribers(ids) : undefined,
    withLists ? undefined : domain.channels.subscriberCounts(ids),
  ]);
  return {
    subscribers: (id: number) => lists?.get(id) ?? [],
    count: (id: number) => (lists ? (lists.get(id)?.length ?? 0) : (counts!.get(id) ?? 0)),
  };
}

/** subscriberFacts, and the channels' recent activity. */
async function factsFor(domain: Domain, channels: readonly Channel[], withLists = false) {
  const ids = channels.map((c) => c.id);
  const [facts, active] = await Promise.all([
    subscriberFacts(domain, ids, withLists),
    domain.channels.recentlyActive(ids),
  ]);
  return { ...facts, active };
}

/** GET /users/me/subscriptions (and /register's, archived channels too for clients with archived_channels). */
export async function listSubscriptions(
  domain: Domain,
  actor: Actor,
  includeSubscribers: boolean,
  includeArchived = false,
): Promise<Record<string, unknown>[]> {
  const subs = await domain.channels.subscriptionsOfUser(actor.user.id);
  const channels = await domain.channels.channelsByIds(subs.map((s) => s.channelId));
  const byId = new Map(channels.map((c) => [c.id, c]));
  const { subscribers, count, active } = await factsFor(domain, channels, includeSubscribers);
  const groups = new GroupValueFormatter(domain, actor.realm);
  const out: Record<string, unknown>[] = [];
  for (const sub of subs) {
    const channel = byId.get(sub.channelId);
    if (!channel || (channel.isArchived && !includeArchived)) continue;
    out.push(
      await subscriptionDict(
        channel,
        sub,
        { subscriberCount: count(channel.id), recentlyActive: active.has(channel.id) },
        groups,
        includeSubscribers ? subscribers(channel.id) : undefined,
      ),
    );
  }
  return out;
}

export interface StreamListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAllActive: boolean;
  includeAll: boolean;
  includeDefault: boolean;
}

/** GET /streams: the channels the caller may see, filtered as Zulip's do_get_streams does. */
export async function listStreams(
  domain: Domain,
  actor: Actor,
  options: StreamListOptions,
): Promise<Record<string, unknown>[]> {
  if ((options.includeAllActive || options.includeAll) && !isAdmin(actor.user))
    throw invalid('User not authorized for this query');
  const channels = await domain.channels.channelsInRealm(actor.realm.id);
  const subs = await domain.channels.subscriptionsFor(
    actor.user.id,
    channels.map((c) => c.id),
  );
  const defaults = new Set(options.includeDefault ? await domain.defaultChannels.ids(actor.realm.id) : []);
  const visible = channels.filter((channel) => {
    if (options.excludeArchived && channel.isArchived) return false;
    if (options.includeAll || options.includeAllActive || defaults.has(channel.id)) return true;
    const sub = subs.get(channel.id);
    if (options.includeSubscribed && sub?.active) return true;
    if (options.includeWebPublic && channel.isWebPublic) return true;
    return options.includePublic && !channel.inviteOnly && !isGuest(actor.user);
  });
  const { count, active } = await factsFor(domain, visible);
  const groups = new GroupValueFormatter(domain, actor.realm);
  const out: Record<string, unknown>[] = [];
  for (const channel of visible) {
    const dict = await streamDict(
      channel,
      { subscriberCount: count(channel.id), recentlyActive: active.has(channel.id) },
      groups,
    );
    if (options.includeDefault) dict.is_default = defaults.has(channel.id);
    out.push(dict);
  }
  return out;
}

/** GET /streams/{stream_id}. */
export async function getStream(domain: Domain, actor: Actor, channelId: number): Promise<Record<string, unknown>> {
  const { channel } = await accessChannelById(domain, actor, channelId, { allowRealmAdmin: true, allowArchived: true });
  const { count, active } = await factsFor(domain, [channel]);
  return streamDict(
    channel,
    { subscriberCount: count(channel.id), recentlyActive: active.has(channel.id) },
    new GroupValueFormatter(domain, actor.realm),
  );
}

/** GET /get_stream_id. */
export async function getStreamId(domain: Domain, actor: Actor, name: string): Promise<number> {
  const error = () => invalid(`Invalid channel name '${name}'`);
  const channel = await domain.directory.channelByName(actor.realm.id, name);
  if (!channel || channel.isArchived) throw error();
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  if (!basicAccess(actor, channel, sub?.active ? sub : null)) throw error();
  return channel.id;
}
