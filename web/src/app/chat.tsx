import { useEffect, useState } from 'preact/hooks';
import { logout } from '../lib/api';
import * as client from '../lib/client';
import { EventLoop } from '../lib/events';
import { conversationOf, isSearch, type Term } from '../lib/narrow';
import { NarrowView } from '../conversations/narrow-view';
import { SearchBox } from '../search/search-box';
import { SettingsPage } from '../settings/settings';
import { Views } from '../views/views';
import { ChannelsPage } from '../channels/channels';
import { notifyAbout, titleUnread } from '../notifications/notify';
import { PermissionBanner } from '../notifications/permission';
import { UserCard } from '../people/card';
import { PeopleView } from '../people/people';
import { Shortcuts } from '../keyboard/shortcuts';
import { BotsView } from '../integrations/entry';
import { docked, NewMessageDock } from '../compose/new-message';
import type { Presence } from '../store/model';
import {
  applyEvents,
  applyRegister,
  channelName,
  loaded,
  me,
  presence,
  presenceTimes,
  status,
  userName,
  users,
} from '../store/store';
import { refreshRoute, route } from '../lib/router';
import { Sidebar } from '../sidebar/sidebar';

/** A narrow's heading: `#channel > topic`, the people of a DM, or what a filter or search is. */
export function narrowTitle(terms: readonly Term[]): string {
  if (terms.length === 0) return 'Combined feed';
  const conversation = conversationOf(terms);
  if (conversation?.kind === 'stream')
    return `#${channelName(conversation.streamId) ?? conversation.streamId}${conversation.topic !== undefined ? ` > ${conversation.topic}` : ''}`;
  if (conversation?.kind === 'dm')
    return conversation.userIds
      .filter((id) => id !== me.value || conversation.userIds.length === 1)
      .map((id) => userName(id) ?? id)
      .join(', ');
  if (isSearch(terms) || terms.length > 1) return 'Search results';
  const [t] = terms;
  if (t.operator === 'is' && t.operand === 'mentioned') return 'Mentions';
  if (t.operator === 'is' && t.operand === 'starred') return 'Starred messages';
  if (t.operator === 'is' && (t.operand === 'dm' || t.operand === 'private')) return 'Direct messages';
  if (t.operator === 'near') return 'Message';
  return 'Search results';
}

const VIEW_TITLES: Record<string, string> = {
  inbox: 'Inbox',
  recent: 'Recent conversations',
  drafts: 'Drafts',
  scheduled: 'Scheduled messages',
  channels: 'Channels',
  people: 'People',
  settings: 'Settings',
  bots: 'Bots',
};

export function ChatApp({ onSignedOut }: { onSignedOut: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    const loop = new EventLoop(
      (state) => {
        applyRegister(state);
        refreshRoute();
      },
      (events) => {
        applyEvents(events);
        notifyAbout(events);
      },
      (s) => (status.value = s),
      onSignedOut,
    );
    loop.start();
    return () => loop.stop();
  }, []);

  // Being here is what makes one present to others: a ping now and at the interval the server asks for; each
  // answer carries everyone's presence.
  const ready = loaded.value;
  const pingEvery = presenceTimes.value.ping;
  useEffect(() => {
    if (!ready) return;
    const ping = () =>
      void client.me
        .presence<Presence>()
        .then((answer) => {
          const next = new Map(presence.value);
          for (const [id, p] of Object.entries(answer.presences ?? {})) next.set(Number(id), p);
          presence.value = next;
        })
        .catch(() => undefined);
    ping();
    const timer = setInterval(ping, pingEvery * 1000);
    return () => clearInterval(timer);
  }, [ready, pingEvery]);

  // Following a link closes the phone-sized menu.
  const current = route.value;
  useEffect(() => setMenuOpen(false), [current]);

  // The tab says how many unread messages wait (as the user's settings count them), then where one is.
  const waiting = titleUnread.value;
  useEffect(() => {
    const where = current.view === 'narrow' ? narrowTitle(current.terms) : VIEW_TITLES[current.view];
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${where} – Confab`;
  });

  if (!ready) return <p class="loading">Connecting…</p>;
  const title = current.view === 'narrow' ? narrowTitle(current.terms) : VIEW_TITLES[current.view];

  return (
    <div class={`chat ${menuOpen ? 'menu-open' : ''} ${docked() ? 'docked' : ''}`}>
      <header class="topbar">
        <button class="menu" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen(!menuOpen)}>
          ☰<span class="visually-hidden">Conversations</span>
        </button>
        <h1 id="narrow-title">{title}</h1>
        <SearchBox />
        <span class={`status ${status.value}`} role="status">
          {status.value === 'live' ? 'Connected' : 'Reconnecting…'}
        </span>
        <a
          id="settings-open"
          class="button"
          href="#settings"
          aria-current={current.view === 'settings' ? 'page' : undefined}
        >
          Settings
        </a>
        <button
          id="signout"
          onClick={() => {
            void logout().finally(onSignedOut);
          }}
        >
          Sign out
        </button>
      </header>
      <Sidebar onFollow={() => setMenuOpen(false)} />
      {current.view === 'settings' ? (
        <SettingsPage me={me.value} users={users.value} onClose={() => history.back()} />
      ) : current.view === 'narrow' ? (
        <NarrowView terms={current.terms} />
      ) : current.view === 'channels' ? (
        <ChannelsPage channelId={current.channelId} />
      ) : current.view === 'people' ? (
        <PeopleView />
      ) : current.view === 'bots' ? (
        <BotsView />
      ) : (
        <Views view={current.view} />
      )}
      <NewMessageDock />
      <PermissionBanner />
      <UserCard />
      <Shortcuts />
    </div>
  );
}
