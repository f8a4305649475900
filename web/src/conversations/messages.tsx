import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import * as client from '../lib/client';
import type { EmojiChoice } from '../emoji/emoji';
import { imageName, Lightbox } from './lightbox';
import { conversationKey, type Message, type Subscription } from '../store/model';
import { messageHash } from './message-link';
import { selectedMessage } from './selection';
import './previews.css';
import './render-window.css';
import { mutedUsers, settings } from '../store/personal';
import { dayKey } from './times';
import { useRenderWindow } from './use-render-window';
import { pendingUpdates } from '../widgets/pending';
import type { MenuAction } from './message-menu';
import { MessageRow, type RowHandlers } from './message-row';
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
  const twentyFour = !!settings.value.twenty_four_hour_time;
  const today = dayKey(Date.now());
  const [editing, setEditing] = useState<number | null>(null);
  const [picking, setPicking] = useState<number | null>(null);
  const [menuOpen, setMenuOpen] = useState<number | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const meRef = useRef(me);
  meRef.current = me;
  // One set of handlers for the list's life: the rows compare their props, and a new function would re-render them.
  const handlers = useRef<RowHandlers>({
    act: (m: Message, action: MenuAction) => {
      const self = meRef.current;
      if (action === 'copy-link') void copyLink(m, self).then((link) => setCopied({ id: m.id, link }));
      else if (action === 'edit' || action === 'move') setEditing(m.id);
      else if (action === 'mark-unread') void markUnreadFromHere(m);
      else if (action === 'quote') {
        closeNewMessage();
        void quoteAndReply(m, `${location.origin}${location.pathname}${messageHash(m, self)}`);
      } else if (window.confirm('Delete this message?')) void client.messages.delete(m.id).catch(() => undefined);
    },
    edited: (id) => setEditing((open) => (open === id ? null : open)),
    pick: (id) => setPicking(id),
    openMenu: (id) => setMenuOpen(id),
    closeMenu: (id) => setMenuOpen((open) => (open === id ? null : open)),
    reveal: (id) => setRevealed((was) => new Set(was).add(id)),
  }).current;
  // The keyboard's selection in sight (the window may only now hold it).
  useLayoutEffect(() => {
    if (selected !== null)
      list.current?.querySelector(`.message[data-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
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
          // Zulip's feed: a date separator where the day changes, a recipient bar where the conversation (or the day)
          // changes, and inside a block one sender's consecutive messages under one avatar and name.
          // The window's first message begins a block, as if the history began there.
          const prev = at === 0 ? undefined : messages[i - 1];
          const newDay = !prev || dayKey(prev.timestamp * 1000) !== dayKey(m.timestamp * 1000);
          const newBlock = newDay || placeOf(prev, me) !== placeOf(m, me);
          return (
            <MessageRow
              key={m.id}
              m={m}
              me={me}
              isAdmin={isAdmin}
              channels={channels}
              showWhere={showWhere}
              searching={searching}
              twentyFour={twentyFour}
              today={today}
              newDay={newDay}
              newBlock={newBlock}
              continued={!newBlock && prev?.sender_id === m.sender_id}
              isTarget={m.id === target}
              isSelected={m.id === selected}
              isFirstUnread={m.id === firstUnread}
              editing={editing === m.id}
              picking={picking === m.id}
              menuOpen={menuOpen === m.id}
              copiedLink={copied?.id === m.id ? copied.link : null}
              hidden={muted.has(m.sender_id) && !revealed.has(m.id)}
              pending={pending.get(m.id)}
              handlers={handlers}
            />
          );
        })}
      </ol>
      {lightbox && (
        <Lightbox src={lightbox.src} href={lightbox.href} name={lightbox.name} onClose={() => setLightbox(null)} />
      )}
    </>
  );
}
