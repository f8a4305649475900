import { invalid, missingArgument } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { accessChannelById, checkCanPost } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';
import { normalizeTopic } from './text.js';

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: larger channels get no typing notifications. */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

/** Subscribers to notify: the channel's, unless it is too large, who want typing notifications. */
async function channelAudience(domain: Domain, actor: Actor, channelId: number): Promise<number[]> {
  const subscribers = (await domain.channels.subscribers([channelId])).get(channelId) ?? [];
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return [];
  await domain.othersChanges.settle(actor.realm.id, subscribers);
  const users = await domain.directory.usersByIds(actor.realm.id, subscribers);
  return users.filter((u) => u.isActive && u.receivesTypingNotifications).map((u) => u.id);
}

/** POST /typing. */
export async function setTypingStatus(
  domain: Domain,
  actor: Actor,
  input: {
    type: string;
    op: 'start' | 'stop';
    to: number[] | undefined;
    streamId: number | undefined;
    topic: string | undefined;
  },
): Promise<void> {
  const contract = input.op === 'start' ? contracts.typingStarted : contracts.typingStopped;
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  const sender = { user_id: actor.user.id, email: actor.user.email };
  let payload;
  if (input.type === 'stream' || input.type === 'channel') {
    if (input.streamId === undefined) throw invalid("Missing 'stream_id' argument");
    if (input.topic === undefined) throw invalid('Missing topic');
    if (!actor.user.sendStreamTypingNotifications)
      throw invalid('User has disabled typing notifications for channel messages');
    const { channel, sub } = await accessChannelById(domain, actor, input.streamId);
    await checkCanPost(domain, actor, channel, sub);
    const topic = normalizeTopic(input.topic, actor.realm.emptyTopicDisplayName);
    payload = {
      sender,
      message_type: 'stream' as const,
      stream_id: channel.id,
      topic,
      user_ids: await channelAudience(domain, actor, channel.id),
    };
  } else {
    if (input.to === undefined) throw missingArgument('to');
    if (input.to.length === 0) throw invalid("Empty 'to' list");
    if (!actor.user.sendPrivateTypingNotifications)
      throw invalid('User has disabled typing notifications for direct messages');
    const ids = [...new Set([...input.to, actor.user.id])];
    // A recipient's own change of receives_typing_notifications counts from their next request on, for others too.
    await domain.othersChanges.settle(actor.realm.id, ids);
    const users = new Map((await domain.directory.usersByIds(actor.realm.id, ids)).map((u) => [u.id, u]));
    for (const id of ids) if (!users.has(id)) throw invalid(`Invalid user ID ${id}`);
    const recipients = ids.map((id) => users.get(id)!);
    payload = {
      sender,
      message_type: 'direct' as const,
      recipients: recipients.map((u) => ({ user_id: u.id, email: u.email })),
      user_ids: recipients.filter((u) => u.isActive && u.receivesTypingNotifications).map((u) => u.id),
    };
  }
  await domain.store.publish([outboxRecord(contract, payload, meta)]);
}

/** POST /messages/{message_id}/typing: the sender is editing their message. */
export async function setEditTypingStatus(
  domain: Domain,
  actor: Actor,
  messageId: number,
  op: 'start' | 'stop',
): Promise<void> {
  const { message } = await accessMessage(domain, actor, messageId);
  if (message.senderId !== actor.user.id) throw invalid("You don't have permission to edit this message");
  const contract = op === 'start' ? contracts.typingEditMessageStarted : contracts.typingEditMessageStopped;
  let recipient;
  let userIds: number[];
  if (message.channelId !== null) {
    if (!actor.user.sendStreamTypingNotifications)
      throw invalid('User has disabled typing notifications for channel messages');
    recipient = { type: 'channel' as const, channel_id: message.channelId, topic: message.topic };
    userIds = await channelAudience(domain, actor, message.channelId);
  } else {
    if (!actor.user.sendPrivateTypingNotifications)
      throw invalid('User has disabled typing notifications for direct messages');
    const participants = message.dmUserIds ?? [];
    recipient = { type: 'direct' as const, user_ids: participants };
    await domain.othersChanges.settle(actor.realm.id, participants);
    const users = await domain.directory.usersByIds(actor.realm.id, participants);
    userIds = users.filter((u) => u.isActive && u.receivesTypingNotifications).map((u) => u.id);
  }
  const payload = { sender_id: actor.user.id, message_id: message.id, recipient, user_ids: userIds };
  await domain.store.publish([
    outboxRecord(contract, payload, { realmId: actor.realm.id, requestId: actor.requestId }),
  ]);
}
