import { invalid } from '@confab/errors';
import { accessChannelById } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { firstUnprintable, topicKey, truncate, MAX_TOPIC_LENGTH } from './text.js';
import { userTopicEvent } from './topic-policy.js';
import type { VisibilityPolicy } from './types.js';

/**
 * POST /user_topics: sets the caller's visibility policy for a topic, which need not have messages. Removing a
 * policy (0) only needs the channel to exist; setting one needs access to the channel, as in Zulip.
 */
export async function setTopicVisibility(
  domain: Domain,
  actor: Actor,
  input: { channelId: number; topic: string; policy: VisibilityPolicy },
): Promise<void> {
  let channelId: number;
  if (input.policy === 0) {
    const channel = await domain.directory.channel(input.channelId);
    if (!channel || channel.realmId !== actor.realm.id) throw invalid('Invalid channel ID');
    channelId = channel.id;
  } else {
    channelId = (await accessChannelById(domain, actor, input.channelId)).channel.id;
  }
  let topic = input.topic.trim();
  if (topic === actor.realm.emptyTopicDisplayName) topic = '';
  const bad = firstUnprintable(topic);
  if (bad !== null) throw invalid(`Invalid character in topic, at position ${bad}!`);
  topic = truncate(topic, MAX_TOPIC_LENGTH, '...');
  const change = {
    userId: actor.user.id,
    channelId,
    topicName: topic,
    topicKey: topicKey(topic),
    policy: input.policy,
  };
  const now = new Date();
  await domain.db.writeSql(actor.realm.id, async ({ userTopics }) => {
    await userTopics.setPolicies([change], now);
    return {
      result: undefined,
      events: [userTopicEvent(change, now, { realmId: actor.realm.id, requestId: actor.requestId })],
    };
  });
}

/**
 * PATCH /users/me/subscriptions/muted_topics, the deprecated form of POST /user_topics: muting sets policy 1,
 * unmuting 0, for a channel given by id or by name.
 */
export async function setTopicMuted(
  domain: Domain,
  actor: Actor,
  input: { channel: number | string; topic: string; muted: boolean },
): Promise<void> {
  let channelId: number;
  if (typeof input.channel === 'number') channelId = input.channel;
  else {
    const channel = await domain.directory.channelByName(actor.realm.id, input.channel);
    if (!channel) throw invalid(`Invalid channel name '${input.channel}'`);
    channelId = channel.id;
  }
  await setTopicVisibility(domain, actor, { channelId, topic: input.topic, policy: input.muted ? 1 : 0 });
}
