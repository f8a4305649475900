import { invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { accessChannelById } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import type { SubscriptionPatch } from './channel-store.js';

const bool = (name: string, value: unknown): boolean => {
  if (typeof value !== 'boolean') throw invalid(`${name} is not a boolean`);
  return value;
};

/** Zulip's property_converters: each property's check and the stored field it sets. */
const PROPERTIES: Record<string, (value: unknown) => SubscriptionPatch> = {
  color: (value) => {
    if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value))
      throw invalid('color is not a valid hex color code');
    return { color: value };
  },
  is_muted: (value) => ({ isMuted: bool('is_muted', value) }),
  // The deprecated inverse of is_muted.
  in_home_view: (value) => ({ isMuted: !bool('in_home_view', value) }),
  pin_to_top: (value) => ({ pinToTop: bool('pin_to_top', value) }),
  desktop_notifications: (value) => ({ desktopNotifications: bool('desktop_notifications', value) }),
  audible_notifications: (value) => ({ audibleNotifications: bool('audible_notifications', value) }),
  push_notifications: (value) => ({ pushNotifications: bool('push_notifications', value) }),
  email_notifications: (value) => ({ emailNotifications: bool('email_notifications', value) }),
  wildcard_mentions_notify: (value) => ({ wildcardMentionsNotify: bool('wildcard_mentions_notify', value) }),
};

/**
 * POST /users/me/subscriptions/properties (Zulip's update_subscription_properties_backend): every change checked,
 * then all written in one transaction; each reaches the user's clients as a `subscription` update event (muting
 * also as the deprecated `in_home_view`, as Zulip sends both).
 */
export async function updateSubscriptionProperties(
  domain: Domain,
  actor: Actor,
  data: readonly { stream_id: number; property: string; value: unknown }[],
): Promise<void> {
  const planned: { channelId: number; patch: SubscriptionPatch; changes: { property: string; value: unknown }[] }[] =
    [];
  for (const change of data) {
    const convert = PROPERTIES[change.property];
    if (!convert) throw invalid(`Unknown subscription property: ${change.property}`);
    const { sub } = await accessChannelById(domain, actor, change.stream_id);
    if (!sub?.active) throw invalid(`Not subscribed to channel ID ${change.stream_id}`);
    const patch = convert(change.value);
    const changes =
      patch.isMuted === undefined
        ? [{ property: change.property, value: change.value }]
        : [
            { property: 'in_home_view', value: !patch.isMuted },
            { property: 'is_muted', value: patch.isMuted },
          ];
    planned.push({ channelId: change.stream_id, patch, changes });
  }
  if (planned.length === 0) return;
  await domain.db.write(actor.realm.id, async ({ channelSettings }) => {
    for (const p of planned) await channelSettings.updateSubscription(actor.user.id, p.channelId, p.patch);
    const meta = { realmId: actor.realm.id, requestId: actor.requestId };
    const events = planned.map((p) =>
      outboxRecord(
        contracts.subscriptionUpdated,
        { user_id: actor.user.id, stream_id: p.channelId, changes: p.changes },
        meta,
      ),
    );
    return { result: undefined, events };
  });
}
