import { api } from '../lib/api';
import { conversationOf } from '../lib/narrow';
import { presenceStatus, topicKey } from '../store/model';
import { Policy, topicPolicy } from '../store/personal';
import {
  dmConversations,
  me,
  presence,
  presenceTimes,
  scheduled,
  shownCounts,
  subscriptions,
  topics,
  userName,
  users,
} from '../store/store';
import { hrefFor, route } from '../app/router';

function Unread({ count }: { count: number }) {
  return count > 0 ? (
    <span class="unread" aria-label={`${count} unread`}>
      {count}
    </span>
  ) : null;
}

const VIEW_LINKS: { id: string; label: string; href: string }[] = [
  { id: 'inbox', label: 'Inbox', href: '#inbox' },
  { id: 'recent', label: 'Recent conversations', href: '#recent' },
  { id: 'feed', label: 'Combined feed', href: '#feed' },
  { id: 'mentions', label: 'Mentions', href: '#narrow/is/mentioned' },
  { id: 'starred', label: 'Starred messages', href: '#narrow/is/starred' },
  { id: 'drafts', label: 'Drafts', href: '#drafts' },
  { id: 'scheduled', label: 'Scheduled messages', href: '#scheduled' },
  { id: 'channels', label: 'Browse channels', href: '#channels' },
  { id: 'people', label: 'People', href: '#people' },
];

/** The views, the channels (with the open channel's topics), direct messages, and scheduled messages. */
export function Sidebar({ onFollow }: { onFollow?: () => void }) {
  const current = route.value;
  const here = location.hash || '#inbox';
  const conversation = current.view === 'narrow' ? conversationOf(current.terms) : null;
  // The counts the Inbox and the title show: muted topics and channels leave them.
  const unread = shownCounts.value;
  const count = (key: string) => unread.get(key) ?? 0;
  const self = me.value;
  const offlineAfter = presenceTimes.value.offline;
  const others = [...users.value.values()].filter((u) => u.user_id !== self);
  return (
    <nav
      id="sidebar"
      aria-label="Conversations"
      onClick={(e) => {
        if ((e.target as Element).closest?.('a')) onFollow?.();
      }}
    >
      <ul class="views">
        {VIEW_LINKS.map((v) => (
          <li key={v.id}>
            <a
              class="conversation view-link"
              data-view={v.id}
              href={v.href}
              aria-current={here === v.href ? 'page' : undefined}
            >
              {v.label}
            </a>
          </li>
        ))}
      </ul>
      <h2>Channels</h2>
      <ul>
        {subscriptions.value.map((s) => {
          const inChannel = conversation?.kind === 'stream' && conversation.streamId === s.stream_id;
          const channelTopics = inChannel ? (topics.value.get(s.stream_id) ?? []) : [];
          return (
            <li key={s.stream_id}>
              <a
                class={`conversation ${s.is_muted ? 'muted' : ''}`}
                data-stream={s.name}
                href={hrefFor({ view: 'narrow', terms: [{ operator: 'channel', operand: s.stream_id }] })}
                aria-current={inChannel && conversation.topic === undefined ? 'page' : undefined}
              >
                <span class="swatch" style={{ background: s.color ?? '#888' }} aria-hidden="true" />
                <span class="name">#{s.name}</span>
                {s.is_muted && <span class="visually-hidden">(muted)</span>}
                <Unread count={count(`s:${s.stream_id}`)} />
              </a>
              {channelTopics.length > 0 && (
                <ul class="topics" aria-label={`Topics in #${s.name}`}>
                  {channelTopics
                    .filter((t, i) => i < 8 || count(topicKey(s.stream_id, t)) > 0)
                    .map((t) => {
                      const policy = topicPolicy(s.stream_id, t);
                      return (
                        <li key={t}>
                          <a
                            class={`conversation topic-link ${policy === Policy.muted ? 'muted' : ''}`}
                            data-policy={policy}
                            data-topic={t}
                            href={hrefFor({
                              view: 'narrow',
                              terms: [
                                { operator: 'channel', operand: s.stream_id },
                                { operator: 'topic', operand: t },
                              ],
                            })}
                            aria-current={
                              conversation?.kind === 'stream' && conversation.topic === t ? 'page' : undefined
                            }
                          >
                            <span class="name">{t}</span>
                            {policy === Policy.muted && <span class="visually-hidden">(muted)</span>}
                            {policy === Policy.followed && (
                              <span class="followed" role="img" aria-label="followed">
                                ◉
                              </span>
                            )}
                            <Unread count={count(topicKey(s.stream_id, t))} />
                          </a>
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
          const state = presenceStatus(presence.value.get(u.user_id), Date.now() / 1000, offlineAfter);
          return (
            <li key={u.user_id}>
              <a
                class="conversation"
                data-user={u.email}
                href={hrefFor({ view: 'narrow', terms: [{ operator: 'dm', operand: [u.user_id] }] })}
                aria-current={
                  conversation?.kind === 'dm' && conversation.userIds.join() === String(u.user_id) ? 'page' : undefined
                }
              >
                <span class={`presence ${state}`} role="img" aria-label={state} />
                <span class="name">{u.full_name}</span>
                <Unread count={count(`d:${u.user_id}`)} />
              </a>
            </li>
          );
        })}
      </ul>
      <GroupConversations
        current={conversation?.kind === 'dm' ? conversation.userIds.filter((id) => id !== self).join() : ''}
        count={count}
      />
      {scheduled.value.length > 0 && (
        <>
          <h2>Scheduled</h2>
          <ul class="scheduled">
            {[...scheduled.value]
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

/** Group direct messages (three people or more), most recent first, with their unread counts. */
function GroupConversations({ current, count }: { current: string; count: (key: string) => number }) {
  const groups = dmConversations.value.filter((ids) => ids.length > 1).slice(0, 10);
  if (groups.length === 0) return null;
  return (
    <>
      <h2>Group conversations</h2>
      <ul>
        {groups.map((ids) => {
          const label = ids.map((id) => userName(id) ?? `#${id}`).join(', ');
          return (
            <li key={ids.join()}>
              <a
                class="conversation"
                data-group-dm={ids.join(',')}
                href={hrefFor({ view: 'narrow', terms: [{ operator: 'dm', operand: ids }] })}
                aria-current={current === ids.join() ? 'page' : undefined}
              >
                <span class="name">{label}</span>
                <Unread count={count(`d:${ids.join(',')}`)} />
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
}
