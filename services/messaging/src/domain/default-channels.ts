import { invalid, organizationAdministratorRequired } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { accessChannelById } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { subscribeUserTo } from './invitation-channels.js';
import { isAdmin } from './permissions.js';
import type { MessagingStore } from './store.js';
import type { Channel, Realm, User } from './types.js';

/** Zulip's notify_default_streams: every member's client gets the list after a change. */
export async function defaultChannelsEvent(
  store: Pick<MessagingStore, 'defaultChannels'>,
  realmId: number,
  requestId: string,
): Promise<OutboxRecord> {
  return outboxRecord(
    contracts.defaultChannelsChanged,
    { realm_id: realmId, default_streams: await store.defaultChannels.ids(realmId) },
    { realmId, requestId },
  );
}

/** Adds (or removes) a default channel in the caller's unit of work; the event when the list changed. */
export async function setDefaultChannel(
  store: Pick<MessagingStore, 'defaultChannels'>,
  actor: Actor,
  channelId: number,
  isDefault: boolean,
): Promise<OutboxRecord[]> {
  const changed = isDefault
    ? await store.defaultChannels.add(actor.realm.id, channelId)
    : await store.defaultChannels.remove(channelId);
  return changed ? [await defaultChannelsEvent(store, actor.realm.id, actor.requestId)] : [];
}

/** Channels created with is_default_stream become default channels (only newly created ones, as in Zulip). */
export async function makeDefault(
  store: Pick<MessagingStore, 'defaultChannels'>,
  actor: Actor,
  channels: readonly Channel[],
): Promise<OutboxRecord[]> {
  if (channels.length === 0) return [];
  for (const channel of channels) await store.defaultChannels.add(actor.realm.id, channel.id);
  return [await defaultChannelsEvent(store, actor.realm.id, actor.requestId)];
}

/** Zulip's check_if_user_can_manage_default_streams. */
export function checkCanManageDefaults(actor: Actor): void {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
}

/** POST /default_streams (Zulip's add_default_stream). */
export async function addDefaultChannel(domain: Domain, actor: Actor, channelId: number): Promise<void> {
  checkCanManageDefaults(actor);
  const { channel } = await accessChannelById(domain, actor, channelId);
  if (channel.inviteOnly) throw invalid('Private channels cannot be made default.');
  await domain.db.write(actor.realm.id, async (store) => ({
    result: undefined,
    events: await setDefaultChannel(store, actor, channel.id, true),
  }));
}

/** DELETE /default_streams (Zulip's remove_default_stream: metadata access is enough). */
export async function removeDefaultChannel(domain: Domain, actor: Actor, channelId: number): Promise<void> {
  checkCanManageDefaults(actor);
  const { channel } = await accessChannelById(domain, actor, channelId, { allowRealmAdmin: true, allowArchived: true });
  await domain.db.write(actor.realm.id, async (store) => ({
    result: undefined,
    events: await setDefaultChannel(store, actor, channel.id, false),
  }));
}

/**
 * Subscribes a new member of the organization to its default channels, in the unit of work that records them
 * (Zulip's process_new_human_user; bots and accounts made by an invitation's sign-up are not).
 */
export async function subscribeNewMember(
  domain: Domain,
  store: MessagingStore,
  realm: Realm,
  user: User,
  requestId: string,
): Promise<OutboxRecord[]> {
  if (user.isBot || !user.isActive) return [];
  const ids = await store.defaultChannels.ids(realm.id);
  if (ids.length === 0) return [];
  const channels = (await domain.channels.channelsByIds(ids)).filter((c) => c.realmId === realm.id && !c.isArchived);
  return (await subscribeUserTo(domain, store, { user, realm, requestId }, channels)).events;
}
