/**
 * Muting and following for the conversation being read: mute or unmute the channel
 * (POST /users/me/subscriptions/properties), and mute, unmute or follow the topic (POST /user_topics). The state comes
 * back as events, so every open window of the user changes with it.
 */
import * as client from '../lib/client';
import type { Conversation } from '../lib/narrow';
import { Policy, topicPolicy } from '../store/personal';
import { subscriptions } from '../store/store';

const setPolicy = (streamId: number, topic: string, policy: number) =>
  void client.me.topicPolicy(streamId, topic, policy).catch(() => undefined);

export function ConversationActions({ conversation }: { conversation: Conversation }) {
  if (conversation.kind !== 'stream') return null;
  const { streamId, topic } = conversation;
  const subscription = subscriptions.value.find((s) => s.stream_id === streamId);
  if (!subscription) return null;
  const channelMuted = !!subscription.is_muted;
  const policy = topic === undefined ? Policy.inherit : topicPolicy(streamId, topic);
  const topicMuted =
    policy === Policy.muted || (channelMuted && policy !== Policy.unmuted && policy !== Policy.followed);
  return (
    <div class="conversation-actions" role="toolbar" aria-label="Conversation">
      {topic === undefined ? (
        <button
          id="mute-channel"
          aria-pressed={channelMuted}
          onClick={() =>
            void client.me
              .subscriptionProperties([{ stream_id: streamId, property: 'is_muted', value: !channelMuted }])
              .catch(() => undefined)
          }
        >
          {channelMuted ? 'Unmute channel' : 'Mute channel'}
        </button>
      ) : (
        <>
          <button
            id="mute-topic"
            aria-pressed={topicMuted}
            onClick={() =>
              setPolicy(streamId, topic, topicMuted ? (channelMuted ? Policy.unmuted : Policy.inherit) : Policy.muted)
            }
          >
            {topicMuted ? 'Unmute topic' : 'Mute topic'}
          </button>
          <button
            id="follow-topic"
            aria-pressed={policy === Policy.followed}
            onClick={() => setPolicy(streamId, topic, policy === Policy.followed ? Policy.inherit : Policy.followed)}
          >
            {policy === Policy.followed ? 'Unfollow topic' : 'Follow topic'}
          </button>
        </>
      )}
    </div>
  );
}
