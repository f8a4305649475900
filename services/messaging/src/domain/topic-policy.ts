import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { SendFacts, TopicPolicyChange, User, VisibilityPolicy } from './types.js';
import { VISIBILITY_FOLLOWED, VISIBILITY_NONE, VISIBILITY_UNMUTED } from './types.js';

/** Values of automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy. */
export const ON_PARTICIPATION = 1;
export const ON_SEND = 2;
export const ON_INITIATION = 3;

/** What the sender's automatic topic policy on a send depends on. */
export interface SendPolicyFacts {
  /** The sender's visibility policy of the topic before the send (VISIBILITY_NONE when none). */
  current: number;
  follow: number;
  unmute: number;
  /** The sender has muted the channel. */
  muted: boolean;
  /** The topic had messages (that the sender can see) before this one. */
  had: boolean;
}

/** A row of the rule: every condition given must hold (lists: one of the values). */
export interface SendPolicyRow {
  current?: readonly number[];
  currentNot?: readonly number[];
  follow?: readonly number[];
  unmute?: readonly number[];
  muted?: boolean;
  had?: boolean;
  then: VisibilityPolicy | null;
}

/**
 * Zulip's visibility_policy_for_send_message as a table: the first row whose conditions hold gives the policy (null:
 * nothing changes). Sending can only raise the sender's visibility of the topic — to followed per
 * automatically_follow_topics_policy (sending is both participating and sending; starting a topic is also
 * initiating), or to unmuted in a muted channel per automatically_unmute_topics_in_muted_streams_policy. The one
 * source of the rule: the TypeScript below evaluates it, and the send statement's SQL is written from it
 * (repositories/send-sql.ts, `sendPolicySql`); a test runs both over every case.
 */
export const SEND_POLICY_RULE: readonly SendPolicyRow[] = [
  { current: [VISIBILITY_FOLLOWED], then: null },
  { follow: [ON_PARTICIPATION, ON_SEND], then: VISIBILITY_FOLLOWED },
  {
    currentNot: [VISIBILITY_NONE, VISIBILITY_UNMUTED],
    muted: true,
    unmute: [ON_PARTICIPATION, ON_SEND],
    then: VISIBILITY_UNMUTED,
  },
  { currentNot: [VISIBILITY_NONE], then: null },
  { had: false, follow: [ON_INITIATION], then: VISIBILITY_FOLLOWED },
  { muted: true, unmute: [ON_PARTICIPATION, ON_SEND], then: VISIBILITY_UNMUTED },
  { muted: true, had: false, unmute: [ON_INITIATION], then: VISIBILITY_UNMUTED },
  { then: null },
];

function holds(row: SendPolicyRow, f: SendPolicyFacts): boolean {
  return (
    (row.current === undefined || row.current.includes(f.current)) &&
    (row.currentNot === undefined || !row.currentNot.includes(f.current)) &&
    (row.follow === undefined || row.follow.includes(f.follow)) &&
    (row.unmute === undefined || row.unmute.includes(f.unmute)) &&
    (row.muted === undefined || row.muted === f.muted) &&
    (row.had === undefined || row.had === f.had)
  );
}

/** The rule's answer for these facts. */
export function sendPolicy(facts: SendPolicyFacts): VisibilityPolicy | null {
  return SEND_POLICY_RULE.find((row) => holds(row, facts))?.then ?? null;
}

/** Zulip's visibility_policy_for_send_message for a sender and what was read before the send. */
export function automaticPolicyOnSend(
  sender: Pick<User, 'automaticallyFollowTopicsPolicy' | 'automaticallyUnmuteTopicsInMutedStreamsPolicy'>,
  facts: Pick<SendFacts, 'senderPolicy' | 'senderMuted' | 'topicHadMessages'>,
): VisibilityPolicy | null {
  return sendPolicy({
    current: facts.senderPolicy,
    follow: sender.automaticallyFollowTopicsPolicy,
    unmute: sender.automaticallyUnmuteTopicsInMutedStreamsPolicy,
    muted: facts.senderMuted === true,
    had: facts.topicHadMessages,
  });
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
