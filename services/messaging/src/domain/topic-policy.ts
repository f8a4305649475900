import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { SendFacts, TopicPolicyChange, User, VisibilityPolicy } from './types.js';
import { VISIBILITY_FOLLOWED, VISIBILITY_NONE, VISIBILITY_UNMUTED } from './types.js';

/** Values of automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy. */
const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const ON_INITIATION = 3;

/**
 * Zulip's visibility_policy_for_send_message: sending can only raise the sender's visibility of the topic — to
 * followed per automatically_follow_topics_policy, or to unmuted in a muted channel per
 * automatically_unmute_topics_in_muted_streams_policy. Returns null when nothing changes.
 */
export function automaticPolicyOnSend(
  sender: Pick<User, 'automaticallyFollowTopicsPolicy' | 'automaticallyUnmuteTopicsInMutedStreamsPolicy'>,
  facts: Pick<SendFacts, 'senderPolicy' | 'senderMuted' | 'topicHadMessages'>,
): VisibilityPolicy | null {
  const current = facts.senderPolicy;
  if (current === VISIBILITY_FOLLOWED) return null;
  const follow = sender.automaticallyFollowTopicsPolicy;
  const unmute = sender.automaticallyUnmuteTopicsInMutedStreamsPolicy;
  const muted = facts.senderMuted === true;
  // Sending is both participating and sending; starting a topic is also initiating.
  if (follow === ON_PARTICIPATION || follow === ON_SEND) return VISIBILITY_FOLLOWED;
  let policy: VisibilityPolicy | null = null;
  if (muted && (unmute === ON_PARTICIPATION || unmute === ON_SEND)) policy = VISIBILITY_UNMUTED;
  if (current !== VISIBILITY_NONE) return policy !== null && policy === current ? null : policy;
  if (!facts.topicHadMessages) {
    if (follow === ON_INITIATION) return VISIBILITY_FOLLOWED;
    if (muted && unmute === ON_INITIATION) policy = VISIBILITY_UNMUTED;
  }
  return policy;
}

export function userTopicEvent(
  change: TopicPolicyChange,
  at: Date,
  meta: { realmId: number; requestId: string },
): OutboxRecord {
  return outboxRecord(
    contracts.userTopicChanged,
    {
      user_id: change.userId,
      stream_id: change.channelId,
      topic_name: change.topicName,
      last_updated: Math.floor(at.getTime() / 1000),
      visibility_policy: change.policy,
    },
    meta,
  );
}
