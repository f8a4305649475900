import { invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { basicAccess } from './channel-access.js';
import { channelRecord, GroupValueFormatter } from './channel-records.js';
import { insufficientPermission } from './channel-rules.js';
import { principalsToUsers } from './channels.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import { checkChannelName } from './text.js';

/**
 * DELETE /users/me/subscriptions: unsubscribes the caller (or `principals`, with the channel's permission to remove
 * subscribers) from the named channels, as Zulip's remove_subscriptions_backend does.
 */
export async function unsubscribeFromChannels(
  domain: Domain,
  actor: Actor,
  input: { names: readonly string[]; principals: readonly (number | string)[] | undefined },
): Promise<{ removed: string[]; not_removed: string[] }> {
  const principals = input.principals ?? [];
  const people = principals.length > 0 ? await principalsToUsers(domain, actor, principals) : [actor.user];
  const unsubscribingOthers = people.some((u) => u.id !== actor.user.id);
  const names = input.names.map((n) => n.trim());
  for (const name of names) checkChannelName(name);
  const found = await domain.channels.channelsByNames(actor.realm.id, names);
  const missing = names.filter((n) => !found.has(n.toLowerCase()));
  if (missing.length > 0) throw invalid(`Channel(s) (${missing.join(', ')}) do not exist`);
  // In the order the request named them, once each.
  const channels = [...new Map(names.map((n) => found.get(n.toLowerCase())!).map((c) => [c.id, c])).values()];
  if (unsubscribingOthers) {
    const subs = await domain.channels.subscriptionsFor(
      actor.user.id,
      channels.map((c) => c.id),
    );
    for (const channel of channels) {
      const sub = subs.get(channel.id);
      const accessible = basicAccess(actor, channel, sub?.active ? sub : null, true);
      const allowed =
        isAdmin(actor.user) ||
        (await domain.permissions.has(actor.user, actor.realm, channel.permissions.can_remove_subscribers_group));
      if (!accessible || !allowed) throw insufficientPermission();
    }
  }
  return domain.db.write(actor.realm.id, async (store) => {
    const pairs = people.flatMap((u) => channels.map((c) => ({ userId: u.id, channelId: c.id })));
    const removedPairs = await store.channels.unsubscribe(pairs);
    const byId = new Map(channels.map((c) => [c.id, c]));
    const removedKeys = new Set(removedPairs.map((p) => `${p.userId}:${p.channelId}`));
    const removed = removedPairs.map((p) => byId.get(p.channelId)!.name);
    const notRemoved = pairs
      .filter((p) => !removedKeys.has(`${p.userId}:${p.channelId}`))
      .map((p) => byId.get(p.channelId)!.name);
    const events: OutboxRecord[] = [];
    if (removedPairs.length > 0) {
      const touched = channels.filter((c) => removedPairs.some((p) => p.channelId === c.id));
      const counts = await store.channels.subscribers(touched.map((c) => c.id));
      const groups = new GroupValueFormatter(domain, actor.realm, store.people);
      events.push(
        outboxRecord(
          contracts.subscriptionRemoved,
          {
            changes: touched.map((c) => ({
              stream_id: c.id,
              user_ids: removedPairs.filter((p) => p.channelId === c.id).map((p) => p.userId),
            })),
            streams: await Promise.all(touched.map((c) => channelRecord(c, counts.get(c.id)?.length ?? 0, groups))),
          },
          { realmId: actor.realm.id, requestId: actor.requestId },
        ),
      );
    }
    return { result: { removed, not_removed: notRemoved }, events };
  });
}
