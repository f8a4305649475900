import { organizationAdministratorRequired } from '@confab/errors';
import { accessChannelById, canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { removeMessages } from './message-actions.js';
import { isAdmin } from './permissions.js';
import { topicKey } from './text.js';
import { userTopicEvent } from './topic-policy.js';
import { VISIBILITY_NONE, type TopicPolicyChange } from './types.js';

/** Zulip's retention STREAM_MESSAGE_BATCH_SIZE: messages deleted per transaction. */
export const TOPIC_DELETION_BATCH = 100;
/** Zulip stops after 50 seconds and answers `complete: false`; the client repeats the request. */
const TIME_LIMIT_MS = 50_000;

/**
 * POST /streams/{stream_id}/delete_topic (Zulip's delete_in_topic): an administrator deletes the topic's messages
 * they can see, newest first, one batch per transaction, so progress is kept when the request runs out of time
 * (then `complete` is false). Once the topic is empty, its users' visibility policies go too, except, in a channel
 * whose history is protected, for users who still received some message of it.
 */
export async function deleteTopic(
  domain: Domain,
  actor: Actor,
  channelId: number,
  topicName: string,
  options: { timeLimitMs?: number; batchSize?: number } = {},
): Promise<{ complete: boolean }> {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
  const { channel, sub } = await accessChannelById(domain, actor, channelId);
  const topic = topicName === actor.realm.emptyTopicDisplayName ? '' : topicName;
  const key = topicKey(topic);
  const receivedBy = canAccessHistory(actor, channel, sub) ? undefined : actor.user.id;
  const deadline = Date.now() + (options.timeLimitMs ?? TIME_LIMIT_MS);
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  const batch = options.batchSize ?? TOPIC_DELETION_BATCH;
  // Read again once done: messages sent to the topic meanwhile go too.
  for (;;) {
    const ids = (await domain.edits.topicMessageDates(channel.recipientId, key, { receivedBy }))
      .map((m) => m.id)
      .sort((a, b) => b - a);
    if (ids.length === 0) break;
    for (let at = 0; at < ids.length; at += batch) {
      if (Date.now() >= deadline) return { complete: false };
      await removeMessages(domain, await domain.messages.messagesByIds(ids.slice(at, at + batch)), meta);
    }
  }
  const stale: { userId: number; topicName: string }[] = [];
  for (const row of await domain.userTopics.withPolicy(channel.id, key)) {
    if (
      channel.historyPublicToSubscribers ||
      !(await domain.messages.receivedInTopic(row.userId, channel.recipientId, key))
    )
      stale.push(row);
  }
  if (stale.length > 0) {
    const changes: TopicPolicyChange[] = stale.map((row) => ({
      userId: row.userId,
      channelId: channel.id,
      topicName: row.topicName,
      topicKey: key,
      policy: VISIBILITY_NONE,
    }));
    const now = new Date();
    await domain.db.writeSql(meta.realmId, async ({ userTopics }) => {
      await userTopics.setPolicies(changes, now);
      return { result: undefined, events: changes.map((c) => userTopicEvent(c, now, meta)) };
    });
  }
  return { complete: true };
}
