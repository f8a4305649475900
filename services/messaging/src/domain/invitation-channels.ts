import { invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { accessChannelById } from './channel-access.js';
import { channelRecord, GroupValueFormatter, subscriptionRecord } from './channel-records.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin, isGuest } from './permissions.js';
import type { MessagingStore } from './store.js';
import type { Channel } from './types.js';

/**
 * The channels of an invitation link (services/invitations/README.md): whether its creator may subscribe others to
 * them, and subscribing the person who joined through it.
 */

/** Zulip's default new-user colors, in order; a new account uses none yet. */
const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5'];

/** Zulip's get_streams_to_which_user_cannot_add_subscribers(allow_default_streams=True). */
async function mayAddSubscribers(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  defaults: ReadonlySet<number>,
): Promise<boolean> {
  if (isAdmin(actor.user)) return true;
  if (isGuest(actor.user)) return false;
  if (defaults.has(channel.id)) return true;
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_add_subscribers_group')) return true;
  const { permissions } = channel;
  return (
    (await domain.permissions.has(actor.user, actor.realm, permissions.can_administer_channel_group)) ||
    (await domain.permissions.has(actor.user, actor.realm, permissions.can_add_subscribers_group))
  );
}

/** Zulip's access_streams_for_invite, answered for the invitation's creator. */
export async function checkInvitationChannels(
  domain: Domain,
  actor: Actor,
  streamIds: readonly number[],
): Promise<void> {
  const channels: Channel[] = [];
  for (const id of streamIds) {
    try {
      channels.push((await accessChannelById(domain, actor, id)).channel);
    } catch {
      throw invalid(`Invalid channel ID ${id}. No invites were sent.`);
    }
  }
  const defaults = new Set(await domain.defaultChannels.ids(actor.realm.id));
  for (const channel of channels) {
    if (!(await mayAddSubscribers(domain, actor, channel, defaults))) {
      throw invalid('You do not have permission to subscribe other users to channels.');
    }
  }
}

/**
 * Subscribes one user to channels in the caller's unit of work, publishing the same `subscription.added` event as any
 * subscription; channels they are subscribed to already are left alone.
 */
export async function subscribeUserTo(
  domain: Domain,
  store: MessagingStore,
  actor: Actor,
  channels: readonly Channel[],
): Promise<{ ids: number[]; events: OutboxRecord[] }> {
  if (channels.length === 0) return { ids: [], events: [] };
  const existing = await store.channels.subscriptionsOf(
    [actor.user.id],
    channels.map((c) => c.id),
  );
  const byChannel = new Map(existing.map((s) => [s.channelId, s]));
  const wanted = channels
    .filter((c) => !byChannel.get(c.id)?.active)
    .map((c, index) => ({
      userId: actor.user.id,
      channelId: c.id,
      color: byChannel.get(c.id)?.color ?? COLORS[index % COLORS.length]!,
    }));
  const added = await store.channels.subscribe(wanted);
  if (added.length === 0) return { ids: [], events: [] };
  const counts = await store.channels.subscribers(added.map((s) => s.channelId));
  const groups = new GroupValueFormatter(domain, actor.realm);
  const touched = channels.filter((c) => added.some((s) => s.channelId === c.id));
  const event = outboxRecord(
    contracts.subscriptionAdded,
    {
      changes: touched.map((c) => ({ stream_id: c.id, user_ids: [actor.user.id] })),
      subscriptions: added.map(subscriptionRecord),
      streams: await Promise.all(touched.map((c) => channelRecord(c, counts.get(c.id)?.length ?? 0, groups))),
    },
    { realmId: actor.realm.id, requestId: actor.requestId },
  );
  return { ids: touched.map((c) => c.id), events: [event] };
}

/**
 * Subscribes a person who just joined to the invitation's channels, and to the organization's default channels when
 * the invitation says so (archived or deleted ones are skipped). Repeating the call adds nothing.
 */
export async function subscribeInvitedUser(
  domain: Domain,
  actor: Actor,
  streamIds: readonly number[],
  includeDefaults: boolean,
): Promise<number[]> {
  const ids = new Set(streamIds);
  if (includeDefaults) for (const id of await domain.defaultChannels.ids(actor.realm.id)) ids.add(id);
  const channels = (await domain.channels.channelsByIds([...ids])).filter(
    (c) => c.realmId === actor.realm.id && !c.isArchived,
  );
  if (channels.length === 0) return [];
  return domain.db.write(actor.realm.id, async (store) => {
    const { ids: subscribed, events } = await subscribeUserTo(domain, store, actor, channels);
    return { result: subscribed, events };
  });
}
