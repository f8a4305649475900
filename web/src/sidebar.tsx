import { api } from './api';
import {
  presenceStatus,
  topicKey,
  type Narrow,
  type Presence,
  type ScheduledMessage,
  type Subscription,
  type User,
} from './state';

/** The conversations: channels (with the open channel's topics), direct messages, and scheduled messages. */
export function Sidebar({
  subscriptions,
  others,
  narrow,
  topics,
  scheduled,
  presence,
  offlineAfter,
  unreadCount,
  open,
}: {
  subscriptions: Subscription[];
  others: User[];
  narrow: Narrow | null;
  topics: Map<number, string[]>;
  scheduled: ScheduledMessage[];
  presence: Map<number, Presence>;
  /** Seconds without a ping after which a user shows as offline (the server's threshold). */
  offlineAfter: number;
  unreadCount: (key: string) => number;
  open: (narrow: Narrow) => void;
}) {
  return (
    <nav id="sidebar" aria-label="Conversations">
      <h2>Channels</h2>
      <ul>
        {subscriptions.map((s) => {
          const count = unreadCount(`s:${s.stream_id}`);
          const inChannel = narrow?.kind === 'stream' && narrow.streamId === s.stream_id;
          const current = inChannel && narrow.topic === undefined;
          const channelTopics = inChannel ? (topics.get(s.stream_id) ?? []) : [];
          return (
            <li key={s.stream_id}>
              <button
                class="conversation"
                data-stream={s.name}
                aria-current={current ? 'page' : undefined}
                onClick={() => open({ kind: 'stream', streamId: s.stream_id })}
              >
                <span class="swatch" style={{ background: s.color ?? '#888' }} aria-hidden="true" />#{s.name}
                {count > 0 && (
                  <span class="unread" aria-label={`${count} unread`}>
                    {count}
                  </span>
                )}
              </button>
              {channelTopics.length > 0 && (
                <ul class="topics" aria-label={`Topics in #${s.name}`}>
                  {channelTopics
                    .filter((t, i) => i < 8 || unreadCount(topicKey(s.stream_id, t)) > 0)
                    .map((t) => {
                      const topicCount = unreadCount(topicKey(s.stream_id, t));
                      return (
                        <li key={t}>
                          <button
                            class="conversation topic-link"
                            data-topic={t}
                            aria-current={narrow?.kind === 'stream' && narrow.topic === t ? 'page' : undefined}
                            onClick={() => open({ kind: 'stream', streamId: s.stream_id, topic: t })}
                          >
                            {t}
                            {topicCount > 0 && (
                              <span class="unread" aria-label={`${topicCount} unread`}>
                                {topicCount}
                              </span>
                            )}
                          </button>
                        </li>
                      );
                    })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <h2>Direct messages</h2>
      <ul>
        {others.map((u) => {
          const count = unreadCount(`d:${u.user_id}`);
          return (
            <li key={u.user_id}>
              <button
                class="conversation"
                data-user={u.email}
                aria-current={narrow?.kind === 'dm' && narrow.userIds.join() === String(u.user_id) ? 'page' : undefined}
                onClick={() => open({ kind: 'dm', userIds: [u.user_id] })}
              >
                <span
                  class={`presence ${presenceStatus(presence.get(u.user_id), Date.now() / 1000, offlineAfter)}`}
                  role="img"
                  aria-label={presenceStatus(presence.get(u.user_id), Date.now() / 1000, offlineAfter)}
                />
                {u.full_name}
                {count > 0 && (
                  <span class="unread" aria-label={`${count} unread`}>
                    {count}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {scheduled.length > 0 && (
        <>
          <h2>Scheduled</h2>
          <ul class="scheduled">
            {[...scheduled]
              .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
              .map((m) => (
                <li key={m.scheduled_message_id} data-scheduled={m.scheduled_message_id}>
                  <time dateTime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>
                    {new Date(m.scheduled_delivery_timestamp * 1000).toLocaleString()}
                  </time>
                  <span class="text">{m.content}</span>
                  {m.failed && <span class="error">failed</span>}
                  <button
                    class="cancel"
                    aria-label="Cancel scheduled message"
                    onClick={() =>
                      void api.delete(`/scheduled_messages/${m.scheduled_message_id}`).catch(() => undefined)
                    }
                  >
                    Cancel
                  </button>
                </li>
              ))}
          </ul>
        </>
      )}
    </nav>
  );
}
