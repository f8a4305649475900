import { Fragment } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import * as client from '../lib/client';
import type { EmojiChoice } from '../emoji/emoji';
import { EmojiPicker } from '../emoji/picker';
import { emojify } from '../emoji/render';
import { MessageEditor } from './editor';
import { imageName, Lightbox } from './lightbox';
import { realmEmoji } from '../store/store';
import { conversationKey, emojiGlyph, type Message, type Reaction, type Subscription } from '../store/model';
import { messageHash } from './message-link';
import { selectedMessage } from './selection';
import { Avatar } from '../people/avatar';
import { cardUser } from '../people/card';
import './previews.css';
import { mutedUsers, settings } from '../store/personal';
import { dayKey, dayLabel, fullTime, messageTime } from './times';
import { RecipientBar } from './recipient-bar';
import { useRenderWindow } from './use-render-window';
import { pollOf } from '../widgets/poll-data';
import { PollWidget } from '../widgets/poll';
import { todoOf } from '../widgets/todo-data';
import { TodoWidget } from '../widgets/todo';
import { pendingUpdates, withPending } from '../widgets/pending';
import { MessageMenu } from './message-actions';
import type { MenuAction } from './message-menu';
import { markUnreadFromHere } from './mark-unread';
import { quoteAndReply } from '../compose/quote';
import { closeNewMessage } from '../compose/new-message';

async function copyLink(m: Message, me: number): Promise<string> {
  const link = `${location.origin}${location.pathname}${messageHash(m, me)}`;
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    // No clipboard permission (an insecure origin): the link is still shown to copy by hand.
  }
  return link;
}

/** Where a message is, for grouping: its channel and topic, or its DM conversation. */
const placeOf = (m: Message, me: number) =>
  m.type === 'stream' ? `t:${m.stream_id}:${m.subject}` : conversationKey(m, me);

const THUMBS_UP = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };

/** Reactions grouped by emoji, with whether I am among those who reacted. */
function grouped(reactions: Reaction[], me: number) {
  const groups = new Map<string, { reaction: Reaction; count: number; mine: boolean }>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const group = groups.get(key) ?? { reaction: r, count: 0, mine: false };
    group.count += 1;
    group.mine ||= r.user_id === me;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function toggleReaction(
  message: Message,
  emoji: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>,
  on: boolean,
) {
  const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
  void client.messages.react(message.id, params, on).catch(() => undefined);
}

/** A reaction's emoji: the Unicode emoji itself, or a custom emoji's image. */
function ReactionGlyph({ reaction }: { reaction: Reaction }) {
  if (reaction.reaction_type === 'realm_emoji') {
    const custom = realmEmoji.value.find((e) => e.code === reaction.emoji_code);
    if (custom?.url)
      return <img class="emoji" src={custom.url} alt={`:${reaction.emoji_name}:`} width={18} height={18} />;
  }
  return <>{emojiGlyph(reaction)}</>;
}

/** A conversation's messages: server-rendered HTML, reactions, edit and delete for one's own; older ones load at the top. */
export function MessageList({
  messages,
  me,
  channels,
  onTop,
  isAdmin = false,
  target = null,
  showWhere = false,
  searching = false,
  firstUnread = null,
}: {
  messages: Message[];
  me: number;
  channels: readonly Subscription[];
  onTop: () => Promise<void>;
  emoji?: readonly EmojiChoice[];
  /** Administrators may delete anyone's message (the server decides, as for everything here). */
  isAdmin?: boolean;
  /** The message a link points at: scrolled to and marked. */
  target?: number | null;
  /** Say where each message is (channel and topic, or DM) with a link to it: in views that mix conversations. */
  showWhere?: boolean;
  /** A search: show the server's highlighted content and topic. */
  searching?: boolean;
  /** The first message that was unread when the view opened: a "New messages" divider above it, scrolled to. */
  firstUnread?: number | null;
}) {
  const list = useRef<HTMLOListElement>(null);
  const last = messages[messages.length - 1]?.id;
  const selected = selectedMessage.value;
  // Only a window of the loaded messages is in the page (render-window.ts); older messages added at the top, and the
  // window's moves, keep the reader's place.
  const { shown, onScroll } = useRenderWindow(list, messages, { target, firstUnread, selected });
  const shownUnread = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const marked = target !== null ? el.querySelector<HTMLElement>(`.message[data-id="${target}"]`) : null;
    // On opening, the first unread message is in sight (its divider at the top if there are more than fit), once.
    const divider =
      target === null && firstUnread !== null && shownUnread.current !== firstUnread
        ? el.querySelector<HTMLElement>('.unread-divider')
        : null;
    if (marked) marked.scrollIntoView({ block: 'center' });
    else if (divider) {
      shownUnread.current = firstUnread;
      divider.scrollIntoView({ block: 'start' });
    } else if (target === null) el.scrollTop = el.scrollHeight;
  }, [last, target, target !== null && messages.some((m) => m.id === target), firstUnread]);
  const [copied, setCopied] = useState<{ id: number; link: string } | null>(null);
  const [lightbox, setLightbox] = useState<{ src: string; href: string; name: string } | null>(null);
  const twentyFour = settings.value.twenty_four_hour_time;
  const now = Date.now();
  const [editing, setEditing] = useState<number | null>(null);
  const [picking, setPicking] = useState<number | null>(null);
  const [menuOpen, setMenuOpen] = useState<number | null>(null);
  const act = (m: Message, action: MenuAction) => {
    if (action === 'copy-link') void copyLink(m, me).then((link) => setCopied({ id: m.id, link }));
    else if (action === 'edit' || action === 'move') setEditing(m.id);
    else if (action === 'mark-unread') void markUnreadFromHere(m);
    else if (action === 'quote') {
      closeNewMessage();
      void quoteAndReply(m, `${location.origin}${location.pathname}${messageHash(m, me)}`);
    } else if (window.confirm('Delete this message?')) void client.messages.delete(m.id).catch(() => undefined);
  };
  // The keyboard's selection in sight (the window may only now hold it).
  useLayoutEffect(() => {
    if (selected !== null)
      list.current?.querySelector(`.message[data-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const muted = mutedUsers.value;
  const pending = pendingUpdates.value;
  return (
    <>
      <ol
        class="messages"
        ref={list}
        aria-live="polite"
        aria-label="Messages"
        tabIndex={0}
        onClick={(e) => {
          const link = (e.target as Element).closest?.('.message_inline_image a');
          // A YouTube thumbnail opens the video itself (the page frames nothing from other hosts).
          if (!link || link.closest('.youtube-video')) return;
          e.preventDefault();
          const img = link.querySelector('img');
          setLightbox({
            // The image as the message shows it: from this host (uploads, and the image proxy for other hosts).
            src: img?.getAttribute('data-src-fullsize') ?? img?.getAttribute('src') ?? link.getAttribute('href') ?? '',
            href: link.getAttribute('href') ?? '',
            name: imageName(link),
          });
        }}
        data-loaded={messages.length}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (onScroll(el) && el.scrollTop === 0) void onTop().catch(() => undefined);
        }}
      >
        {messages.slice(shown.start, shown.end).map((m, at) => {
          const i = shown.start + at;
          const reactions = grouped(m.reactions ?? [], me);
          // A widget's state with this reader's votes and checks still on their way (widgets/pending.ts).
          const subs = withPending(m.submessages, pending.get(m.id));
          const poll = searching ? null : pollOf(m.sender_id, subs);
          const todo = searching ? null : todoOf(m.sender_id, subs);
          const thumbs = reactions.find((g) => g.reaction.emoji_code === THUMBS_UP.emoji_code);
          // Zulip's feed: a date separator where the day changes, a recipient bar where the conversation (or the day)
          // changes, and inside a block one sender's consecutive messages under one avatar and name.
          // The window's first message begins a block, as if the history began there.
          const prev = at === 0 ? undefined : messages[i - 1];
          const newDay = !prev || dayKey(prev.timestamp * 1000) !== dayKey(m.timestamp * 1000);
          const newBlock = newDay || placeOf(prev, me) !== placeOf(m, me);
          const continued = !newBlock && prev?.sender_id === m.sender_id;
          return (
            <Fragment key={m.id}>
              {newDay && (
                <li class="date-separator" data-day={dayKey(m.timestamp * 1000)}>
                  <span>{dayLabel(m.timestamp)}</span>
                </li>
              )}
              {m.id === firstUnread && (
                <li class="unread-divider" data-first-unread={m.id}>
                  New messages
                </li>
              )}
              <li
                class={`message ${continued ? 'continued' : ''} ${newBlock ? 'block-start' : ''} ${m.id === target ? 'target' : ''} ${m.id === selected ? 'selected' : ''}`}
                data-id={m.id}
                aria-current={m.id === selected ? 'true' : undefined}
              >
                {newBlock && (
                  <RecipientBar
                    m={m}
                    me={me}
                    toMessage={showWhere || searching}
                    searching={searching}
                    dated={!newDay}
                  />
                )}
                <div class="meta">
                  {continued ? (
                    // The name is not repeated on screen; a screen reader still hears whose message it is.
                    <span class="visually-hidden sender-name">{m.sender_full_name}</span>
                  ) : (
                    <>
                      <Avatar
                        user={{ user_id: m.sender_id, full_name: m.sender_full_name, avatar_url: m.avatar_url }}
                        size={24}
                      />
                      <button class="sender link-like" onClick={() => (cardUser.value = m.sender_id)}>
                        {m.sender_full_name}
                      </button>
                    </>
                  )}
                  <time dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullTime(m.timestamp, twentyFour)}>
                    {messageTime(m.timestamp, twentyFour, now)}
                  </time>
                  <span class="actions">
                    {!thumbs?.mine && (
                      <button
                        class="react"
                        aria-label="React with thumbs up"
                        onClick={() => toggleReaction(m, THUMBS_UP, true)}
                      >
                        +👍
                      </button>
                    )}
                    <button
                      class="pick-reaction"
                      aria-label="Add a reaction"
                      aria-expanded={picking === m.id}
                      onClick={() => setPicking(picking === m.id ? null : m.id)}
                    >
                      +☺
                    </button>
                    <button
                      class="star"
                      aria-pressed={(m.flags ?? []).includes('starred')}
                      aria-label={(m.flags ?? []).includes('starred') ? 'Unstar message' : 'Star message'}
                      onClick={() =>
                        void client.messages
                          .flags([m.id], (m.flags ?? []).includes('starred') ? 'remove' : 'add', 'starred')
                          .catch(() => undefined)
                      }
                    >
                      {(m.flags ?? []).includes('starred') ? '★' : '☆'}
                    </button>
                    <MessageMenu
                      message={m}
                      me={me}
                      isAdmin={isAdmin}
                      open={menuOpen === m.id}
                      onOpen={() => setMenuOpen(m.id)}
                      onClose={() => setMenuOpen((open) => (open === m.id ? null : open))}
                      onAction={(action) => act(m, action)}
                    />
                  </span>
                </div>
                {editing === m.id ? (
                  <MessageEditor
                    message={m}
                    channels={channels}
                    moveOnly={m.sender_id !== me}
                    // The editor of another message may be open by the time this one's save is answered: only this one closes.
                    onDone={() => setEditing((open) => (open === m.id ? null : open))}
                  />
                ) : muted.has(m.sender_id) && !revealed.has(m.id) ? (
                  <p class="content muted-message">
                    A message from someone you muted.{' '}
                    <button class="reveal link-like" onClick={() => setRevealed(new Set(revealed).add(m.id))}>
                      Show it
                    </button>
                  </p>
                ) : poll ? (
                  <div class="content">
                    <PollWidget messageId={m.id} poll={poll} me={me} />
                  </div>
                ) : todo ? (
                  <div class="content">
                    <TodoWidget messageId={m.id} list={todo} me={me} />
                  </div>
                ) : (
                  <div
                    class="content"
                    dangerouslySetInnerHTML={{
                      __html: emojify(searching && m.match_content !== undefined ? m.match_content : m.content),
                    }}
                  />
                )}
                {copied?.id === m.id && (
                  <p class="copied" role="status">
                    Link copied: <input class="copied-link" aria-label="Link to message" readOnly value={copied.link} />
                  </p>
                )}
                {m.last_edit_timestamp !== undefined && editing !== m.id && <span class="edited">(edited)</span>}
                {picking === m.id && (
                  <EmojiPicker
                    label="Add a reaction"
                    onClose={() => setPicking(null)}
                    onPick={(choice) => {
                      toggleReaction(
                        m,
                        { emoji_name: choice.name, emoji_code: choice.code, reaction_type: choice.type },
                        true,
                      );
                      setPicking(null);
                    }}
                  />
                )}
                {reactions.length > 0 && (
                  <div class="reactions">
                    {reactions.map((g) => (
                      <button
                        key={g.reaction.emoji_code}
                        class={`reaction ${g.mine ? 'mine' : ''}`}
                        aria-pressed={g.mine}
                        aria-label={`${g.reaction.emoji_name}: ${g.count}`}
                        onClick={() => toggleReaction(m, g.reaction, !g.mine)}
                      >
                        <ReactionGlyph reaction={g.reaction} /> {g.count}
                      </button>
                    ))}
                  </div>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
      {lightbox && (
        <Lightbox src={lightbox.src} href={lightbox.href} name={lightbox.name} onClose={() => setLightbox(null)} />
      )}
    </>
  );
}
