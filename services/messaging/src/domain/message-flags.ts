import { invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { EDITABLE_FLAGS, FLAG, MENTION_BITS, type FlagName } from '@confab/zulip';
import { accessChannelById } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';
import { topicKey } from './text.js';
import type { StoredMessage } from './types.js';

/** Changing users' message flags: POST /messages/flags, and marking channels, topics or everything as read. */

const NON_API_FLAGS = new Set(['is_private', 'active_mobile_push_notification']);
const KNOWN_FLAGS = new Set([...Object.keys(FLAG), 'force_expand', 'force_collapse']);

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
  await domain.db.writeSql(actor.realm.id, async ({ flags }) => {
    await flags.createHistoricalRows(actor.user.id, historical);
    await flags.setFlag(actor.user.id, messageIds, bit, op === 'add');
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
  await domain.db.write(actor.realm.id, async (store) => {
    const ids = await store.messages.markRead(actor.user.id, { recipientId, topicKey: key });
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
