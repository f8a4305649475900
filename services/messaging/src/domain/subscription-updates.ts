import { invalid } from '@confab/errors';
import { accessChannelById } from './channel-access.js';
import type { ChannelSpec, NewChannelSettings } from './channel-rules.js';
import { subscribeToChannels } from './channels.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import { unsubscribeFromChannels } from './unsubscribe.js';

/** The settings of channels PATCH /users/me/subscriptions creates: POST /users/me/subscriptions' defaults. */
const DEFAULT_SETTINGS: NewChannelSettings = {
  inviteOnly: false,
  isWebPublic: false,
  isDefaultStream: false,
  historyPublicToSubscribers: undefined,
  messageRetentionDays: 'realm_default',
  topicsPolicy: undefined,
  folderId: undefined,
  permissions: {},
};

/**
 * PATCH /users/me/subscriptions (Zulip's update_subscriptions_backend): POST and DELETE /users/me/subscriptions for
 * the caller in one request, their answers merged. The names to leave are checked first, so a request that cannot
 * leave them subscribes to nothing either.
 */
export async function updateSubscriptions(
  domain: Domain,
  actor: Actor,
  input: { add: readonly ChannelSpec[]; delete: readonly string[] },
): Promise<Record<string, unknown>> {
  if (input.add.length === 0 && input.delete.length === 0)
    throw invalid('Nothing to do. Specify at least one of "add" or "delete".');
  const names = input.delete.map((n) => n.trim());
  const found = await domain.channels.channelsByNames(actor.realm.id, names);
  const missing = names.filter((n) => !found.has(n.toLowerCase()));
  if (missing.length > 0) throw invalid(`Channel(s) (${missing.join(', ')}) do not exist`);
  const added = await subscribeToChannels(domain, actor, {
    subscriptions: input.add,
    principals: undefined,
    authorizationErrorsFatal: true,
    settings: DEFAULT_SETTINGS,
  });
  const removed = await unsubscribeFromChannels(domain, actor, { names: input.delete, principals: undefined });
  return { ...added, ...removed };
}

/** GET /users/{user_id}/subscriptions/{stream_id} (Zulip's get_subscription_backend). */
export async function subscriptionStatus(
  domain: Domain,
  actor: Actor,
  userId: number,
  channelId: number,
): Promise<{ is_subscribed: boolean }> {
  const [target] = await domain.readModel.usersByIds(actor.realm.id, [userId]);
  if (!target || target.isBot || target.isSystemBot) throw invalid('No such user');
  if (!target.isActive) throw invalid('User is deactivated');
  const { channel } = await accessChannelById(domain, actor, channelId, { allowRealmAdmin: true });
  const sub = await domain.channels.subscription(target.id, channel.id);
  return { is_subscribed: sub?.active === true };
}

/**
 * GET /streams/{stream_id}/email_address (Zulip's get_stream_email_address). Confab receives no email, so, as a
 * Zulip server without an email gateway (EMAIL_GATEWAY_PATTERN empty) does, the address is the empty string; the
 * channel and the sender are checked all the same.
 */
export async function channelEmailAddress(
  domain: Domain,
  actor: Actor,
  channelId: number,
  senderId: number | undefined,
): Promise<{ email: string }> {
  await accessChannelById(domain, actor, channelId);
  if (senderId !== undefined && senderId !== actor.user.id) {
    // Zulip's access_bot_by_id: a bot of the organization the caller administers (its owner, or an administrator).
    const [bot] = await domain.readModel.usersByIds(actor.realm.id, [senderId]);
    if (!bot || !bot.isBot || bot.isSystemBot) throw invalid('No such bot');
    if (!isAdmin(actor.user) && bot.botOwnerId !== actor.user.id) throw invalid('Insufficient permission');
  }
  return { email: '' };
}
