import { useEffect, useRef, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { anchorOf, conversationOf, isSearch, sameTerms, wireNarrow, type Term } from '../lib/narrow';
import { Compose } from '../compose/compose';
import { newMessage } from '../compose/new-message';
import { loadTopics } from '../compose/topics';
import { narrowKey, type Message } from '../store/model';
import {
  counts,
  drafts,
  emoji,
  isAdmin,
  me,
  subscriptions,
  topicsStale,
  typing,
  unread,
  users,
  view,
} from '../store/store';
import { ConversationActions } from './conversation-actions';
import { markerFor, type Marker } from './first-unread';
import { markRead } from './mark-read';
import { markUnreadError, readingPaused } from './mark-unread';
import { MessageList } from './messages';
import { withRetries } from './retry';

const PAGE = 50;

/** A page of history with the messages that events added meanwhile and it does not hold, in id order. */
export function withLive(page: Message[], live: Message[]): Message[] {
  const held = new Set(page.map((m) => m.id));
  const added = live.filter((m) => !held.has(m.id));
  return added.length === 0 ? page : [...page, ...added].sort((a, b) => a.id - b.id);
}

async function fetchPage(terms: readonly Term[], anchor: number | 'newest', before: number, after: number) {
  return client.messages.get<Message>({
    anchor,
    num_before: before,
    num_after: after,
    include_anchor: typeof anchor === 'number' && after === 0 ? false : undefined,
    narrow: wireNarrow(terms),
    apply_markdown: true,
  });
}

/** The messages of a narrow (a conversation, a filter such as mentions, or a search) and, for a conversation, compose. */
export function NarrowView({ terms }: { terms: Term[] }) {
  const key = JSON.stringify(terms);
  const anchor = anchorOf(terms);
  const conversation = conversationOf(terms);

  // The narrow's history: the newest page, or the messages around the one a link points at. A refusal "for now"
  // (429, the read-your-writes gate's 503, a dropped connection) is asked again: giving up left the view empty, and a
  // DM that had come while another view was read was then never shown, nor marked read (issue 45, defect 3).
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setLoadError(null);
    view.value = { terms, messages: [], foundOldest: false, loading: true };
    withRetries(() => fetchPage(terms, anchor ?? 'newest', anchor ? 25 : PAGE, anchor ? 25 : 0), {
      wanted: () => !cancelled,
    })
      .then((answer) => {
        if (cancelled || !sameTerms(view.value.terms, terms)) return;
        // Messages that arrived as events while the page was on its way are kept: the answer may predate them.
        view.value = {
          ...view.value,
          messages: withLive(answer.messages, view.value.messages),
          foundOldest: answer.found_oldest,
          loading: false,
        };
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        view.value = { ...view.value, loading: false };
        setLoadError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      cancelled = true;
      // Leaving the view ends a pause of reading that "Mark as unread" began in it.
      if (readingPaused.value === key) readingPaused.value = null;
      markUnreadError.value = null;
    };
  }, [key, attempt]);

  // The topics of the channel being read.
  const openChannel = conversation?.kind === 'stream' ? conversation.streamId : null;
  const stale = topicsStale.value;
  useEffect(() => {
    if (openChannel !== null) void loadTopics(openChannel);
  }, [openChannel, stale?.streamId === openChannel ? stale.at : 0]);

  // Messages on screen are read (not in a search, which is for finding, as in Zulip).
  const messages = view.value.messages;
  const unreadNow = unread.value;
  const paused = readingPaused.value === key;
  useEffect(() => {
    // After "Mark as unread from here", what is on screen stays unread until the reader leaves (Zulip's prevent_reading).
    if (paused) return;
    // What the view holds now, and only for this narrow: the render's list may be the previous view's (live
    // messages kept while another view was shown), which must not be marked read on opening this one.
    const current = view.value;
    if (isSearch(terms) || !sameTerms(current.terms, terms)) return;
    const ids = current.messages.filter((m) => unreadNow.has(m.id)).map((m) => m.id);
    if (ids.length === 0) return;
    markRead(ids);
  }, [messages, unreadNow, key, paused]);

  async function loadOlder() {
    const current = view.value;
    if (current.foundOldest || current.messages.length === 0 || current.loading) return;
    view.value = { ...current, loading: true };
    try {
      const answer = await fetchPage(terms, current.messages[0].id, PAGE, 0);
      if (!sameTerms(view.value.terms, terms)) return;
      const list = view.value.messages;
      view.value = {
        ...view.value,
        messages: [...answer.messages.filter((m) => !list.some((x) => x.id === m.id)), ...list],
        foundOldest: answer.found_oldest,
      };
    } finally {
      if (sameTerms(view.value.terms, terms)) view.value = { ...view.value, loading: false };
    }
  }

  // The "New messages" divider: above the first message unread when this view's first page came (not in a search).
  const marker = useRef<Marker | null>(null);
  const loaded = !view.value.loading && sameTerms(view.value.terms, terms) && !isSearch(terms);
  marker.current = markerFor(marker.current, key, loaded, messages, unreadNow);

  const self = me.value;
  const typingNow = conversation
    ? [...(typing.value.get(narrowKey(conversation, self)) ?? [])].filter((id) => id !== self)
    : [];
  void counts.value;
  return (
    <main class="messages-pane">
      {conversation && <ConversationActions conversation={conversation} />}
      {paused && (
        <p class="reading-paused" role="status">
          Marked as unread. Messages here stay unread until you leave this view.
        </p>
      )}
      {markUnreadError.value && (
        <p class="error" role="alert">
          {markUnreadError.value.text}
        </p>
      )}
      <MessageList
        messages={messages}
        me={self}
        channels={subscriptions.value}
        onTop={loadOlder}
        emoji={emoji.value}
        isAdmin={isAdmin.value}
        target={anchor}
        showWhere={!conversation || (conversation.kind === 'stream' && conversation.topic === undefined)}
        searching={isSearch(terms)}
        firstUnread={marker.current?.id ?? null}
      />
      {loadError !== null && (
        <p class="error load-error" role="alert">
          Could not load the messages: {loadError}{' '}
          <button type="button" class="link-like" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </p>
      )}
      {!view.value.loading && loadError === null && messages.length === 0 && (
        <p class="empty" role="status">
          {isSearch(terms) ? 'No messages match the search.' : 'No messages here yet.'}
        </p>
      )}
      {conversation && (
        <p class="typing" aria-live="polite">
          {typingNow.map((id) => `${users.value.get(id)?.full_name ?? 'Someone'} is typing…`).join(' ')}
        </p>
      )}
      {conversation && newMessage.value === null && (
        <Compose
          key={`${narrowKey(conversation, self)}/${conversation.kind === 'stream' ? (conversation.topic ?? '') : ''}`}
          narrow={conversation}
          drafts={drafts.value}
          users={[...users.value.values()].filter((u) => u.user_id !== self)}
          emoji={emoji.value}
        />
      )}
    </main>
  );
}
