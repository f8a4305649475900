import { useEffect, useRef, useState } from 'preact/hooks';
import { Compose } from './compose';
import { MessageList } from './messages';
import { SettingsPage } from './settings';
import { Sidebar } from './sidebar';
import { realmEmojiChoices, unicodeEmojiChoices, type EmojiChoice } from './emoji';
import { api, logout } from './api';
import { EventLoop, type RegisterState, type ServerEvent } from './events';
import {
  conversationKey,
  inNarrow,
  narrowFilter,
  narrowKey,
  topicKey,
  unreadFromRegister,
  type Draft,
  type ScheduledMessage,
  type Presence,
  presenceFromEvent,
  type Message,
  type Narrow,
  type Reaction,
  type Subscription,
  type User,
} from './state';

interface Loaded {
  me: number;
  /** Owner or administrator (Zulip's role 100 or 200). */
  isAdmin: boolean;
  users: Map<number, User>;
  subscriptions: Subscription[];
}

export function ChatApp({ onSignedOut }: { onSignedOut: () => void }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [unread, setUnread] = useState(new Map<string, Set<number>>());
  const [narrow, setNarrow] = useState<Narrow | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [status, setStatus] = useState<'live' | 'reconnecting'>('live');
  const [menuOpen, setMenuOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [typing, setTyping] = useState(new Map<string, Set<number>>());
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [scheduled, setScheduled] = useState<ScheduledMessage[]>([]);
  const [presence, setPresence] = useState(new Map<number, Presence>());
  const [presenceTimes, setPresenceTimes] = useState({ ping: 60, offline: 140 });
  const [realmEmoji, setRealmEmoji] = useState<EmojiChoice[]>([]);
  /** Topics of the channels opened so far, most recent first (GET /users/me/{stream_id}/topics, then live). */
  const [topics, setTopics] = useState(new Map<number, string[]>());
  const [unicodeEmoji, setUnicodeEmoji] = useState<EmojiChoice[]>([]);
  const narrowRef = useRef<Narrow | null>(null);
  const meRef = useRef(0);
  narrowRef.current = narrow;

  useEffect(() => {
    const onState = (state: RegisterState) => {
      const me = state.user_id as number;
      meRef.current = me;
      const users = new Map<number, User>();
      for (const u of (state.realm_users as User[] | undefined) ?? []) users.set(u.user_id, u);
      const subscriptions = [...((state.subscriptions as Subscription[] | undefined) ?? [])].sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      setLoaded({ me, users, subscriptions, isAdmin: ((state.role as number | undefined) ?? 400) <= 200 });
      setRealmEmoji(realmEmojiChoices(state.realm_emoji as never));
      void unicodeEmojiChoices(state.server_emoji_data_url as string | undefined)
        .then(setUnicodeEmoji)
        .catch(() => undefined);
      setDrafts((state.drafts as Draft[] | undefined) ?? []);
      setScheduled((state.scheduled_messages as ScheduledMessage[] | undefined) ?? []);
      setPresence(
        new Map(
          Object.entries((state.presences as Record<string, Presence> | undefined) ?? {}).map(([id, p]) => [
            Number(id),
            p,
          ]),
        ),
      );
      setPresenceTimes({
        ping: (state.server_presence_ping_interval_seconds as number | undefined) ?? 60,
        offline: (state.server_presence_offline_threshold_seconds as number | undefined) ?? 140,
      });
      setUnread(unreadFromRegister(state.unread_msgs as never, me));
      setNarrow(
        (current) => current ?? (subscriptions[0] ? { kind: 'stream', streamId: subscriptions[0].stream_id } : null),
      );
    };
    const onEvents = (events: ServerEvent[]) => {
      for (const event of events) applyEvent(event);
    };
    const loop = new EventLoop(onState, onEvents, setStatus, onSignedOut);
    loop.start();
    return () => loop.stop();
  }, []);

  // Being here is what makes one present to others: a ping now and at the interval the server asks for; each
  // answer carries everyone's presence.
  useEffect(() => {
    if (!loaded) return;
    const ping = () =>
      void api
        .post<{ presences?: Record<string, Presence> }>('/users/me/presence', { status: 'active', slim_presence: true })
        .then((answer) =>
          setPresence((map) => {
            const next = new Map(map);
            for (const [id, p] of Object.entries(answer.presences ?? {})) next.set(Number(id), p);
            return next;
          }),
        )
        .catch(() => undefined);
    ping();
    const timer = setInterval(ping, presenceTimes.ping * 1000);
    return () => clearInterval(timer);
  }, [loaded !== null, presenceTimes.ping]);

  function applyEvent(event: ServerEvent) {
    const me = meRef.current;
    if (event.type === 'message') {
      const message = event.message as Message;
      const flags = (event.flags as string[] | undefined) ?? [];
      const current = narrowRef.current;
      if (current && inNarrow(message, current, me)) {
        setMessages((list) => (list.some((m) => m.id === message.id) ? list : [...list, { ...message, flags }]));
      }
      if (!flags.includes('read') && message.sender_id !== me) {
        setUnread((map) => {
          const next = new Map(map);
          const keys = [conversationKey(message, me)];
          if (message.type === 'stream') keys.push(topicKey(message.stream_id!, message.subject));
          for (const key of keys) next.set(key, new Set([...(next.get(key) ?? []), message.id]));
          return next;
        });
      }
      if (message.type === 'stream') {
        setTopics((map) => {
          const list = map.get(message.stream_id!);
          if (!list || list[0] === message.subject) return map;
          return new Map(map).set(message.stream_id!, [message.subject, ...list.filter((t) => t !== message.subject)]);
        });
      }
    } else if (event.type === 'update_message_flags' && event.flag === 'read' && event.op === 'add') {
      const ids = new Set((event.messages as number[]) ?? []);
      setUnread((map) => new Map([...map].map(([key, set]) => [key, new Set([...set].filter((id) => !ids.has(id)))])));
    } else if (event.type === 'reaction') {
      const id = event.message_id as number;
      const r = event as unknown as Reaction & { op: string };
      const same = (x: Reaction) =>
        x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type;
      setMessages((list) =>
        list.map((m) => {
          if (m.id !== id) return m;
          const rest = (m.reactions ?? []).filter((x) => !same(x));
          const added = {
            emoji_name: r.emoji_name,
            emoji_code: r.emoji_code,
            reaction_type: r.reaction_type,
            user_id: r.user_id,
          };
          return { ...m, reactions: r.op === 'add' ? [...rest, added] : rest };
        }),
      );
    } else if (event.type === 'typing') {
      const sender = (event.sender as { user_id: number }).user_id;
      const key = event.message_type === 'stream' ? `s:${event.stream_id as number}` : `d:${sender}`;
      setTyping((map) => {
        const next = new Map(map);
        const set = new Set(next.get(key) ?? []);
        if (event.op === 'start') set.add(sender);
        else set.delete(sender);
        next.set(key, set);
        return next;
      });
    } else if (event.type === 'presence') {
      const userId = event.user_id as number;
      const clients = (event.presence as Record<string, { status: string; timestamp: number }> | undefined) ?? {};
      setPresence((map) => new Map(map).set(userId, presenceFromEvent(map.get(userId), clients)));
    } else if (event.type === 'scheduled_messages') {
      if (event.op === 'add') setScheduled((list) => [...list, ...(event.scheduled_messages as ScheduledMessage[])]);
      else if (event.op === 'update') {
        const updated = event.scheduled_message as ScheduledMessage;
        setScheduled((list) =>
          list.map((m) => (m.scheduled_message_id === updated.scheduled_message_id ? updated : m)),
        );
      } else if (event.op === 'remove')
        setScheduled((list) => list.filter((m) => m.scheduled_message_id !== event.scheduled_message_id));
    } else if (event.type === 'drafts') {
      if (event.op === 'add') setDrafts((list) => [...list, ...(event.drafts as Draft[])]);
      else if (event.op === 'update') {
        const draft = event.draft as Draft;
        setDrafts((list) => list.map((d) => (d.id === draft.id ? draft : d)));
      } else if (event.op === 'remove') setDrafts((list) => list.filter((d) => d.id !== event.draft_id));
    } else if (event.type === 'update_message') {
      // An edit (new rendered content) and/or a move (new topic or channel) of the listed messages.
      const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
      const current = narrowRef.current;
      setMessages((list) =>
        list
          .map((m) => {
            if (!ids.has(m.id)) return m;
            const next: Message = { ...m, last_edit_timestamp: event.edit_timestamp as number };
            if (m.id === event.message_id && typeof event.rendered_content === 'string')
              next.content = event.rendered_content;
            if (typeof event.subject === 'string') next.subject = event.subject;
            if (typeof event.new_stream_id === 'number') next.stream_id = event.new_stream_id;
            return next;
          })
          .filter((m) => !current || !ids.has(m.id) || inNarrow(m, current, me)),
      );
    } else if (event.type === 'realm_user' && (event.op === 'update' || event.op === 'add')) {
      const person = event.person as Partial<User> & { user_id: number };
      setLoaded((current) => {
        if (!current) return current;
        const before = current.users.get(person.user_id);
        if (!before && event.op === 'update') return current;
        const users = new Map(current.users).set(person.user_id, { ...(before as User), ...person });
        return { ...current, users };
      });
    } else if (event.type === 'realm_emoji') {
      setRealmEmoji(realmEmojiChoices(event.realm_emoji as never));
    } else if (event.type === 'delete_message') {
      const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
      setMessages((list) => list.filter((m) => !ids.has(m.id)));
    }
  }

  // History of the open conversation (newest first page, more on scrolling up).
  useEffect(() => {
    if (!narrow) return;
    let cancelled = false;
    setMessages([]);
    api
      .get<{ messages: Message[] }>('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: narrowFilter(narrow),
        apply_markdown: true,
      })
      .then((answer) => {
        // Messages that arrived as events while the page was on its way are kept: the answer may predate them.
        if (!cancelled) setMessages((live) => withLive(answer.messages, live));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [narrow && JSON.stringify(narrow)]);

  // The topics of the channel being read.
  const openChannel = narrow?.kind === 'stream' ? narrow.streamId : null;
  useEffect(() => {
    if (openChannel === null) return;
    void api
      .get<{ topics: { name: string; max_id: number }[] }>(`/users/me/${openChannel}/topics`)
      .then((answer) =>
        setTopics((map) =>
          new Map(map).set(
            openChannel,
            [...answer.topics].sort((a, b) => b.max_id - a.max_id).map((t) => t.name),
          ),
        ),
      )
      .catch(() => undefined);
  }, [openChannel]);

  // Messages on screen are read.
  useEffect(() => {
    if (!narrow || !loaded) return;
    const key = narrowKey(narrow, loaded.me);
    const ids = messages.filter((m) => unread.get(key)?.has(m.id)).map((m) => m.id);
    if (ids.length === 0) return;
    void api.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch(() => undefined);
  }, [messages, narrow, loaded, unread]);

  async function loadOlder() {
    if (!narrow || messages.length === 0) return;
    const answer = await api.get<{ messages: Message[] }>('/messages', {
      anchor: messages[0].id,
      include_anchor: false,
      num_before: 50,
      num_after: 0,
      narrow: narrowFilter(narrow),
    });
    setMessages((list) => [...answer.messages.filter((m) => !list.some((x) => x.id === m.id)), ...list]);
  }

  if (!loaded) return <p class="loading">Connecting…</p>;
  const unreadCount = (key: string) => unread.get(key)?.size ?? 0;
  const emoji = [...realmEmoji, ...unicodeEmoji];
  const others = [...loaded.users.values()].filter((u) => u.user_id !== loaded.me);
  const title = !narrow
    ? ''
    : narrow.kind === 'stream'
      ? `#${loaded.subscriptions.find((s) => s.stream_id === narrow.streamId)?.name ?? ''}${narrow.topic !== undefined ? ` > ${narrow.topic}` : ''}`
      : narrow.userIds.map((id) => loaded.users.get(id)?.full_name ?? id).join(', ');
  const open = (next: Narrow) => {
    setNarrow(next);
    setMenuOpen(false);
    setSettingsOpen(false);
  };

  return (
    <div class={`chat ${menuOpen ? 'menu-open' : ''}`}>
      <header class="topbar">
        <button class="menu" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen(!menuOpen)}>
          ☰<span class="visually-hidden">Conversations</span>
        </button>
        <h1 id="narrow-title">{title}</h1>
        <span class={`status ${status}`} role="status">
          {status === 'live' ? 'Connected' : 'Reconnecting…'}
        </span>
        <button id="settings-open" aria-pressed={settingsOpen} onClick={() => setSettingsOpen(!settingsOpen)}>
          Settings
        </button>
        <button
          id="signout"
          onClick={() => {
            void logout().finally(onSignedOut);
          }}
        >
          Sign out
        </button>
      </header>
      <Sidebar
        subscriptions={loaded.subscriptions}
        others={others}
        narrow={narrow}
        topics={topics}
        scheduled={scheduled}
        presence={presence}
        offlineAfter={presenceTimes.offline}
        unreadCount={unreadCount}
        open={open}
      />
      {settingsOpen && <SettingsPage me={loaded.me} users={loaded.users} onClose={() => setSettingsOpen(false)} />}
      <main class="messages-pane" hidden={settingsOpen}>
        {narrow && (
          <MessageList
            messages={messages}
            me={loaded.me}
            channels={loaded.subscriptions}
            onTop={loadOlder}
            emoji={emoji}
            isAdmin={loaded.isAdmin}
          />
        )}
        {narrow && (
          <p class="typing" aria-live="polite">
            {[...(typing.get(narrowKey(narrow, loaded.me)) ?? [])]
              .filter((id) => id !== loaded.me)
              .map((id) => `${loaded.users.get(id)?.full_name ?? 'Someone'} is typing…`)
              .join(' ')}
          </p>
        )}
        {narrow && (
          <Compose
            key={`${narrowKey(narrow, loaded.me)}/${narrow.kind === 'stream' ? (narrow.topic ?? '') : ''}`}
            narrow={narrow}
            drafts={drafts}
            users={others}
            emoji={emoji}
          />
        )}
      </main>
    </div>
  );
}

/** A page of history with the messages that events added meanwhile and it does not hold, in id order. */
function withLive(page: Message[], live: Message[]): Message[] {
  const held = new Set(page.map((m) => m.id));
  const added = live.filter((m) => !held.has(m.id));
  return added.length === 0 ? page : [...page, ...added].sort((a, b) => a.id - b.id);
}
