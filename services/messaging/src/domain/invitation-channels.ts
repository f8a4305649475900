import { invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { accessChannelById } from './channel-access.js';
import { channelRecord, GroupValueFormatter, subscriptionRecord } from './channel-records.js';
import type { Actor, Domain } from './context.js';
import { isAdmin, isGuest } from './permissions.js';
import type { Channel } from './types.js';
import type { ChannelAccessDeps } from './channel-access.js';
import type { ChannelRecordsDeps } from './channel-records.js';

/** What this file's functions use of the domain: its own ports and those of the areas it calls. */
export type InvitationChannelsDeps = ChannelAccessDeps & ChannelRecordsDeps & Pick<Domain, 'store'>;

/**
 * The channels of an invitation link (services/invitations/README.md): whether its creator may subscribe others to
 * them, and subscribing the person who joined through it.
 */

/** Zulip's default new-user colors, in order; a new account uses none yet. */
const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5'];

/** Zulip's get_streams_to_which_user_cannot_add_subscribers(allow_default_streams=True); Confab has no default channels yet. */
async function mayAddSubscribers(domain: InvitationChannelsDeps, actor: Actor, channel: Channel): Promise<boolean> {
  if (isAdmin(actor.user)) return true;
  if (isGuest(actor.user)) return false;
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_add_subscribers_group')) return true;
  const { permissions } = channel;
  return (
    (await domain.permissions.has(actor.user, actor.realm, permissions.can_administer_channel_group)) ||
    (await domain.permissions.has(actor.user, actor.realm, permissions.can_add_subscribers_group))
  );
}

/** Zulip's access_streams_for_invite, answered for the invitation's creator. */
export async function checkInvitationChannels(
  domain: InvitationChannelsDeps,
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
  for (const channel of channels) {
    if (!(await mayAddSubscribers(domain, actor, channel))) {
      throw invalid('You do not have permission to subscribe other users to channels.');
    }
  }
}

/**
 * Subscribes a person who just joined to the invitation's channels (archived or deleted ones are skipped), publishing
 * the same `subscription.added` event as any subscription. Repeating the call adds nothing.
 */
export async function subscribeInvitedUser(
  domain: InvitationChannelsDeps,
  actor: Actor,
  streamIds: readonly number[],
): Promise<number[]> {
  const channels = (await domain.channels.channelsByIds([...new Set(streamIds)])).filter(
    (c) => c.realmId === actor.realm.id && !c.isArchived,
  );
  if (channels.length === 0) return [];
  return domain.store.transaction(async (tx) => {
    const existing = await domain.channels.subscriptionsOf(
      tx,
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
    const added = await domain.channels.subscribe(tx, wanted);
    if (added.length === 0) return { result: [], events: [] };
    const counts = await domain.channels.subscribers(
      added.map((s) => s.channelId),
      tx,
    );
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
    return { result: touched.map((c) => c.id), events: [event] };
  });
}
