/** Zulip's recipient bar, over each block of the message list: where its messages are, and their date. */
import { hrefFor } from '../lib/router';
import { conversationTerms } from '../lib/narrow';
import type { Message } from '../store/model';
import { channelName, userName } from '../store/store';
import { messageHash } from './message-link';
import { dayLabel } from './times';

/**
 * The bar over a recipient block (Zulip's recipient bar): `#channel › topic` with links to the channel and the topic
 * (to the message itself in views that mix conversations and in searches), or the DM's people; the block's date,
 * unless a date separator says it just above.
 */
export function RecipientBar({
  m,
  me,
  toMessage,
  searching,
  dated,
}: {
  m: Message;
  me: number;
  toMessage: boolean;
  searching: boolean;
  dated: boolean;
}) {
  const day = dated && <span class="bar-date">{dayLabel(m.timestamp)}</span>;
  if (m.type === 'stream') {
    const name =
      channelName(m.stream_id!) ??
      (typeof m.display_recipient === 'string' ? m.display_recipient : String(m.stream_id));
    const topicHref = toMessage
      ? messageHash(m, me)
      : hrefFor({
          view: 'narrow',
          terms: conversationTerms({ kind: 'stream', streamId: m.stream_id!, topic: m.subject }),
        });
    return (
      <div class="recipient-bar">
        <a
          class="channel-link"
          href={hrefFor({ view: 'narrow', terms: conversationTerms({ kind: 'stream', streamId: m.stream_id! }) })}
        >
          #{name}
        </a>
        <span class="bar-sep" aria-hidden="true">
          ›
        </span>
        <a
          class="where"
          href={topicHref}
          aria-label={`${toMessage ? 'Open in conversation: ' : ''}#${name} > ${m.subject}`}
        >
          {searching && m.match_subject !== undefined ? (
            <span class="topic" dangerouslySetInnerHTML={{ __html: m.match_subject }} />
          ) : (
            <span class="topic">{m.subject}</span>
          )}
        </a>
        {day}
      </div>
    );
  }
  const others = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== me) : [];
  const people =
    others.length === 0 ? 'Yourself' : `You and ${others.map((r) => userName(r.id) ?? r.full_name).join(', ')}`;
  const ids = (others.length > 0 ? others.map((r) => r.id) : [me]).sort((a, b) => a - b);
  return (
    <div class="recipient-bar dm-bar">
      <a
        class="where"
        href={
          toMessage
            ? messageHash(m, me)
            : hrefFor({ view: 'narrow', terms: conversationTerms({ kind: 'dm', userIds: ids }) })
        }
        aria-label={`${toMessage ? 'Open in conversation: ' : ''}Direct message: ${people}`}
      >
        {people}
      </a>
      {day}
    </div>
  );
}
