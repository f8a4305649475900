/**
 * The views that gather conversations: Inbox (what is unread, by channel and topic, and direct messages; in
 * ../inbox), Recent conversations, Drafts and Scheduled messages. Combined feed, Mentions and Starred are narrows (`#feed`,
 * `#narrow/is/mentioned`, `#narrow/is/starred`) shown by the conversation view.
 */
import { shortDateTime } from '../conversations/times';
import { settings } from '../store/personal';
import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';
import type { ViewName } from '../lib/hash';
import { conversationTerms, type Conversation } from '../lib/narrow';
import { hrefFor } from '../lib/router';
import type { Message } from '../store/model';
import { isMutedPlace } from '../notifications/rules';
import { RecordTable } from '../ui/record-table';
import { ChooseRecipient } from './choose-recipient';
import { Inbox } from '../inbox/inbox';
import {
  channelName,
  counts,
  drafts,
  lastMessage,
  me,
  scheduled,
  shownCounts,
  subscriptions,
  userName,
  whereOf,
} from '../store/store';

const link = (conversation: Conversation) => hrefFor({ view: 'narrow', terms: conversationTerms(conversation) });
const dmLabel = (ids: number[]) => ids.map((id) => userName(id) ?? `#${id}`).join(', ');

function Count({ n }: { n: number }) {
  return (
    <span class="unread" aria-label={`${n} unread`}>
      {n}
    </span>
  );
}

interface Row {
  key: string;
  conversation: Conversation;
  last: Message;
}

function rowOf(m: Message, self: number): Row {
  if (m.type === 'stream')
    return {
      key: `t:${m.stream_id}:${m.subject}`,
      conversation: { kind: 'stream', streamId: m.stream_id!, topic: m.subject },
      last: m,
    };
  const ids = Array.isArray(m.display_recipient)
    ? m.display_recipient.map((r) => r.id).filter((id) => id !== self)
    : [];
  const userIds = (ids.length > 0 ? ids : [self]).sort((a, b) => a - b);
  return { key: `d:${userIds.join(',')}`, conversation: { kind: 'dm', userIds }, last: m };
}

/** Conversations by their latest message, newest first (from the newest messages, then live). */
function Recent() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const self = me.value;
  useEffect(() => {
    void client.messages
      .list<Message>({
        anchor: 'newest',
        num_before: 400,
        num_after: 0,
        narrow: [],
        apply_markdown: true,
      })
      .then((answer) => {
        const byKey = new Map<string, Row>();
        for (const m of answer.messages) byKey.set(rowOf(m, self).key, rowOf(m, self));
        setRows([...byKey.values()].sort((a, b) => b.last.id - a.last.id));
      })
      .catch(() => setRows([]));
  }, []);
  const live = lastMessage.value;
  useEffect(() => {
    if (!live || rows === null) return;
    const row = rowOf(live, self);
    setRows([row, ...rows.filter((r) => r.key !== row.key)]);
  }, [live]);
  // As Zulip's Recent conversations: muted topics (and a muted channel's topics not unmuted or followed) are left
  // out unless asked for, and counted as the Inbox counts them.
  const [includeMuted, setIncludeMuted] = useState(false);
  const muted = (r: Row) =>
    r.conversation.kind === 'stream' && isMutedPlace(whereOf(r.conversation.streamId, r.conversation.topic ?? ''));
  const shown = rows && (includeMuted ? rows : rows.filter((r) => !muted(r)));
  const all = counts.value;
  const counted = shownCounts.value;
  const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <section class="recent" aria-labelledby="view-title">
      <h2 id="view-title">Recent conversations</h2>
      <label class="recent-filter">
        <input
          type="checkbox"
          checked={includeMuted}
          onChange={(e) => setIncludeMuted((e.target as HTMLInputElement).checked)}
        />{' '}
        Include muted
      </label>
      <RecordTable
        records={shown}
        empty="No conversations yet."
        headings={['Conversation', 'Unread', 'Last message']}
        row={(r) => {
          const c = r.conversation;
          const label =
            c.kind === 'stream' ? `#${channelName(c.streamId) ?? c.streamId} > ${c.topic}` : dmLabel(c.userIds);
          const isMuted = muted(r);
          const key = c.kind === 'stream' ? `t:${c.streamId}:${c.topic}` : r.key;
          const unreadHere = (isMuted ? all : counted).get(key) ?? 0;
          return (
            <tr key={r.key} class={isMuted ? 'recent-row muted' : 'recent-row'} data-conversation={label}>
              <td>
                <a href={link(c)}>{label}</a>
              </td>
              <td>{unreadHere > 0 && <Count n={unreadHere} />}</td>
              <td>
                {r.last.sender_full_name},{' '}
                <time dateTime={new Date(r.last.timestamp * 1000).toISOString()}>
                  {time.format(r.last.timestamp * 1000)}
                </time>
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
}

function Drafts() {
  const list = [...drafts.value].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <section class="drafts" aria-labelledby="view-title">
      <h2 id="view-title">Drafts</h2>
      {list.length === 0 && <p class="empty">No drafts.</p>}
      <ul>
        {list.map((d) => {
          const conversation: Conversation | null =
            d.type === 'stream'
              ? { kind: 'stream', streamId: d.to[0], topic: d.topic }
              : d.type === 'private'
                ? { kind: 'dm', userIds: d.to }
                : null;
          const label = conversation
            ? conversation.kind === 'stream'
              ? `#${channelName(conversation.streamId) ?? ''} > ${conversation.topic}`
              : dmLabel(conversation.userIds)
            : 'No recipient';
          return (
            <li key={d.id} class="draft-row" data-draft={d.id}>
              {conversation ? <a href={link(conversation)}>{label}</a> : <ChooseRecipient draft={d} />}
              <span class="text">{d.content}</span>
              <button
                class="delete-draft"
                aria-label={`Delete draft to ${label}`}
                onClick={() => void client.drafts.delete(d.id).catch(() => undefined)}
              >
                Delete
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Scheduled() {
  const list = [...scheduled.value].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <section class="scheduled-view" aria-labelledby="view-title">
      <h2 id="view-title">Scheduled messages</h2>
      {list.length === 0 && <p class="empty">Nothing is scheduled.</p>}
      <ul>
        {list.map((m) => {
          const label =
            m.type === 'stream'
              ? `#${channelName(m.to as number) ?? ''} > ${m.topic ?? ''}`
              : dmLabel(m.to as number[]);
          return (
            <li key={m.scheduled_message_id} class="scheduled-row" data-scheduled-row={m.scheduled_message_id}>
              <span>{label}</span>
              <time dateTime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>
                {shortDateTime(m.scheduled_delivery_timestamp, !!settings.value.twenty_four_hour_time)}
              </time>
              <span class="text">{m.content}</span>
              <button
                class="cancel"
                aria-label={`Cancel scheduled message to ${label}`}
                onClick={() => void client.scheduledMessages.delete(m.scheduled_message_id).catch(() => undefined)}
              >
                Cancel
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Views({ view }: { view: Exclude<ViewName, 'settings' | 'channels' | 'people'> }) {
  void subscriptions.value;
  return (
    <main class="view-pane">
      {view === 'inbox' ? <Inbox /> : view === 'recent' ? <Recent /> : view === 'drafts' ? <Drafts /> : <Scheduled />}
    </main>
  );
}
