import { invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { deleteFiles, releaseAttachments } from './attachments.js';
import { accessChannelById, canAccessHistory } from './channel-access.js';
import type { Actor, Domain } from './context.js';
import { accessMessage } from './fetch.js';
import { EDITABLE_FLAGS, FLAG, type FlagName } from './flags.js';
import { topicKey } from './text.js';
import type { Channel, StoredMessage } from './types.js';

const NON_API_FLAGS = new Set(['is_private', 'active_mobile_push_notification']);
const KNOWN_FLAGS = new Set([...Object.keys(FLAG), 'force_expand', 'force_collapse']);

/** Users who see changes to a message: those with a row for it, and the channel's subscribers. */
export async function messageAudience(domain: Domain, message: StoredMessage): Promise<number[]> {
  const ids = new Set(await domain.messages.holders(message.id));
  if (message.channelId !== null)
    for (const id of (await domain.channels.subscribers([message.channelId])).get(message.channelId) ?? []) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** POST /messages/flags (Zulip's do_update_message_flags). */
export async function updateFlags(
  domain: Domain,
  actor: Actor,
  input: { messages: number[]; op: string; flag: string },
): Promise<{ messages: number[]; ignored_because_not_subscribed_channels: number[] }> {
  const { op, flag } = input;
  if (!KNOWN_FLAGS.has(flag) || NON_API_FLAGS.has(flag)) throw invalid(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag as FlagName)) throw invalid(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw invalid(`Invalid message flag operation: '${op}'`);
  const bit = FLAG[flag as FlagName];
  let messageIds = [...new Set(input.messages)];
  const ignoredChannels = new Set<number>();
  let unmarked: StoredMessage[] = [];
  if (flag === 'read' && op === 'remove') {
    // Unread channel messages must be in channels the user is subscribed to (Zulip's invariant).
    const subscribed = new Set((await domain.channels.subscriptionsOfUser(actor.user.id)).map((s) => s.channelId));
    const messages = await domain.messages.messagesByIds(messageIds);
    unmarked = messages;
    const outside = new Set(
      messages.filter((m) => m.channelId !== null && !subscribed.has(m.channelId)).map((m) => m.id),
    );
    for (const m of messages) if (outside.has(m.id) && m.channelId !== null) ignoredChannels.add(m.channelId);
    messageIds = messageIds.filter((id) => !outside.has(id));
  }
  const existing = await domain.messages.flagsFor(actor.user.id, messageIds);
  const historical = messageIds.filter((id) => !existing.has(id));
  // Flags may be set on messages without a row (e.g. starring channel history), after checking access.
  for (const id of historical) await accessMessage(domain, actor, id);
  await domain.store.sqlTransaction(async (executor) => {
    await domain.messages.createHistoricalRows(executor, actor.user.id, historical);
    await domain.messages.setFlag(executor, actor.user.id, messageIds, bit, op === 'add');
    const details =
      flag === 'read' && op === 'remove' ? unreadDetails(actor, unmarked, messageIds, existing) : undefined;
    const event = outboxRecord(
      contracts.messageFlagsChanged,
      { user_id: actor.user.id, op, flag, messages: messageIds, ...(details ? { message_details: details } : {}) },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result: undefined, events: [event] };
  });
  return { messages: messageIds, ignored_because_not_subscribed_channels: [...ignoredChannels] };
}

const MENTION_BITS =
  FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned | FLAG.group_mentioned;

/** Zulip's message_details of messages marked unread: what clients need to count them as unread again. */
function unreadDetails(
  actor: Actor,
  messages: readonly StoredMessage[],
  ids: readonly number[],
  flags: Map<number, number>,
): Record<string, contracts.MessageFlagDetail> {
  const wanted = new Set(ids);
  const details: Record<string, contracts.MessageFlagDetail> = {};
  for (const m of messages) {
    if (!wanted.has(m.id)) continue;
    const detail: contracts.MessageFlagDetail =
      m.channelId !== null
        ? { type: 'stream', stream_id: m.channelId, topic: m.topic }
        : { type: 'private', user_ids: (m.dmUserIds ?? []).filter((id) => id !== actor.user.id) };
    if (((flags.get(m.id) ?? 0) & MENTION_BITS) !== 0) detail.mentioned = true;
    details[String(m.id)] = detail;
  }
  return details;
}

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
  const audience = await messageAudience(domain, message);
  const files = await domain.store.transaction(async (tx) => {
    if (!(await domain.messages.lockMessage(tx, message.id))) throw invalid('Message already deleted');
    const released = await releaseAttachments(domain, tx, [message.id], meta);
    await domain.reactions.deleteForMessages(tx, [message.id]);
    await domain.messages.deleteMessages(tx, [message.id]);
    const deleted = outboxRecord(
      contracts.messageDeleted,
      {
        message_ids: [message.id],
        message_type: message.channelId === null ? 'private' : 'stream',
        ...(message.channelId === null ? {} : { stream_id: message.channelId, topic: message.topic }),
        user_ids: audience,
      },
      meta,
    );
    return { result: released.files, events: [deleted, ...released.events] };
  });
  await deleteFiles(domain, files);
}

/** POST /mark_all_as_read, /mark_stream_as_read and /mark_topic_as_read. */
export async function markAsRead(
  domain: Domain,
  actor: Actor,
  scope: { channelId?: number; topic?: string },
): Promise<void> {
  let recipientId: number | undefined;
  let key: string | undefined;
  if (scope.channelId !== undefined) {
    const { channel } = await accessChannelById(domain, actor, scope.channelId);
    recipientId = channel.recipientId;
    if (scope.topic !== undefined) {
      const topic = scope.topic === actor.realm.emptyTopicDisplayName ? '' : scope.topic;
      key = topicKey(topic);
      if (!(await domain.messages.receivedInTopic(actor.user.id, recipientId, key)))
        throw invalid(`No such topic '${scope.topic}'`);
    }
  }
  await domain.store.transaction(async (tx) => {
    const ids = await domain.messages.markRead(tx, actor.user.id, { recipientId, topicKey: key });
    const events =
      ids.length === 0
        ? []
        : [
            outboxRecord(
              contracts.messageFlagsChanged,
              { user_id: actor.user.id, op: 'add', flag: 'read', messages: ids },
              { realmId: actor.realm.id, requestId: actor.requestId },
            ),
          ];
    return { result: undefined, events };
  });
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
