import { invalid } from '@confab/errors';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin, isGuest } from './permissions.js';
import type { Channel, Subscription } from './types.js';

/** Zulip's check_basic_stream_access: web-public, public for non-guests, or subscribed (admins optionally). */
export function basicAccess(
  actor: Actor,
  channel: Channel,
  sub: Subscription | null | undefined,
  allowRealmAdmin = false,
): boolean {
  if (channel.isWebPublic) return true;
  if (!channel.inviteOnly && !isGuest(actor.user)) return true;
  if (sub?.active) return true;
  return allowRealmAdmin && isAdmin(actor.user);
}

/** Whether the user may read the channel's messages from before they received them. */
export function canAccessHistory(actor: Actor, channel: Channel, sub: Subscription | null | undefined): boolean {
  if (channel.isWebPublic) return true;
  if (!channel.inviteOnly && channel.historyPublicToSubscribers && !isGuest(actor.user)) return true;
  if (channel.historyPublicToSubscribers) return !channel.isArchived && basicAccess(actor, channel, sub);
  return false;
}

/** Zulip's access_stream_by_id: a channel of the caller's organization they may see, else `Invalid channel ID`. */
export async function accessChannelById(
  domain: Domain,
  actor: Actor,
  channelId: number,
  options: { allowRealmAdmin?: boolean; allowArchived?: boolean } = {},
): Promise<{ channel: Channel; sub: Subscription | null }> {
  const channel = await domain.directory.channel(channelId);
  if (!channel || channel.realmId !== actor.realm.id) throw invalid('Invalid channel ID');
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  const active = sub?.active ? sub : null;
  if ((channel.isArchived && !options.allowArchived) || !basicAccess(actor, channel, active, options.allowRealmAdmin)) {
    throw invalid('Invalid channel ID');
  }
  return { channel, sub: active };
}

/** Zulip's access_stream_for_send_message (forging aside). */
export async function checkCanPost(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  sub: Subscription | null,
): Promise<void> {
  const allowed = channel.permissions.can_send_message_group;
  if (!(await domain.permissions.has(actor.user, actor.realm, allowed))) {
    throw invalid('You do not have permission to post in this channel.');
  }
  const notAuthorized = () => invalid(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw notAuthorized();
  if (channel.isWebPublic) return;
  if (!(channel.inviteOnly || isGuest(actor.user))) return;
  if (sub?.active) return;
  throw notAuthorized();
}
