import { invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { deleteFiles, releaseAttachments } from './attachments.js';
import { accessChannelById, canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';
import type { Channel, StoredMessage } from './types.js';

async function canDelete(domain: Domain, actor: Actor, message: StoredMessage, channel: Channel | null): Promise<void> {
  const denied = () => invalid("You don't have permission to delete this message");
  const { user, realm } = actor;
  if (await domain.permissions.realmPermission(user, realm, 'can_delete_any_message_group')) return;
  if (channel && (await domain.permissions.has(user, realm, channel.permissions.can_delete_any_message_group))) return;
  if (message.senderId !== user.id) throw denied();
  const own =
    (await domain.permissions.realmPermission(user, realm, 'can_delete_own_message_group')) ||
    (channel !== null && (await domain.permissions.has(user, realm, channel.permissions.can_delete_own_message_group)));
  if (!own) throw denied();
  const limit = realm.messageContentDeleteLimitSeconds;
  if (limit !== null && Date.now() - message.dateSent.getTime() > limit * 1000) {
    throw invalid('The time limit for deleting this message has passed');
  }
}

/** DELETE /messages/{message_id}: permanent deletion, with its rows, reactions and now-unused uploads. */
export async function deleteMessage(domain: Domain, actor: Actor, messageId: number): Promise<void> {
  const { message, channel } = await accessMessage(domain, actor, messageId);
  await canDelete(domain, actor, message, channel);
  await removeMessage(domain, message, { realmId: actor.realm.id, requestId: actor.requestId });
}

/** Deletes a message with its reactions and attachment references, telling everyone who had it. */
export async function removeMessage(
  domain: Domain,
  message: StoredMessage,
  meta: { realmId: number; requestId: string },
): Promise<void> {
  if ((await removeMessages(domain, [message], meta)) === 0) throw invalid('Message already deleted');
}

/**
 * Deletes messages of one conversation (a channel's topic, or one direct conversation) in one transaction: those
 * deleted meanwhile are skipped; returns how many were deleted. One `message.deleted` event tells everyone who had
 * any of them (Zulip's do_delete_messages).
 */
export async function removeMessages(
  domain: Domain,
  messages: readonly StoredMessage[],
  meta: { realmId: number; requestId: string },
): Promise<number> {
  const first = messages[0];
  if (!first) return 0;
  const audience = new Set(await domain.messages.holders(messages.map((m) => m.id)));
  if (first.channelId !== null)
    for (const id of (await domain.channels.subscribers([first.channelId])).get(first.channelId) ?? [])
      audience.add(id);
  const { ids, files } = await domain.db.write(meta.realmId, async (store) => {
    const locked = await store.messages.lockMessages(messages.map((m) => m.id));
    if (locked.length === 0) return { result: { ids: locked, files: [] as string[] }, events: [] };
    const released = await releaseAttachments(store, locked, meta);
    await store.reactions.deleteForMessages(locked);
    await store.messages.deleteMessages(locked);
    const deleted = outboxRecord(
      contracts.messageDeleted,
      {
        message_ids: locked,
        message_type: first.channelId === null ? 'private' : 'stream',
        ...(first.channelId === null ? {} : { stream_id: first.channelId, topic: first.topic }),
        user_ids: [...audience].sort((a, b) => a - b),
      },
      meta,
    );
    return { result: { ids: locked, files: released.files }, events: [deleted, ...released.events] };
  });
  await deleteFiles(domain, files);
  return ids.length;
}

/** GET /users/me/{stream_id}/topics. */
export async function channelTopics(domain: Domain, actor: Actor, channelId: number, allowEmptyTopicName: boolean) {
  const { channel, sub } = await accessChannelById(domain, actor, channelId);
  const topics = await domain.messages.topicsOf(
    channel.recipientId,
    canAccessHistory(actor, channel, sub) ? null : actor.user.id,
  );
  return topics.map((t) => ({
    name: t.name === '' && !allowEmptyTopicName ? actor.realm.emptyTopicDisplayName : t.name,
    max_id: t.maxId,
  }));
}
