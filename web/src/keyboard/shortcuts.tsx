/**
 * The keyboard: Zulip's main shortcuts (keys.ts) on the whole page, and the list `?` shows. Keys typed into a field
 * are the field's, except Esc, which leaves it.
 */
import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { navigate, route } from '../lib/router';
import type { Route } from '../lib/hash';
import { conversationOf, conversationTerms, type Conversation } from '../lib/narrow';
import { selectedMessage } from '../conversations/selection';
import { whereOf } from '../notifications/notify';
import { isMutedPlace } from '../notifications/rules';
import { cardUser } from '../people/card';
import { collapsed, toggleSection, type SectionName } from '../sidebar/state';
import { closeNewMessage, newMessage, openNewMessage } from '../compose/new-message';
import { conversationKey, inNarrow, type Message, type UnreadEntry } from '../store/model';
import { topicPolicy } from '../store/personal';
import { me, subscriptions, unread, view } from '../store/store';
import { actionFor, dmUnread, followedUnread, nextUnread, SHORTCUT_GROUPS, step, type Action } from './keys';
import './shortcuts.css';

const helpOpen = signal(false);

const TEXT_INPUTS = /^(?:text|search|email|password|number|url|tel|datetime-local|date|time)$/;
function isTyping(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  return el.tagName === 'INPUT' && TEXT_INPUTS.test((el as HTMLInputElement).type);
}

/**
 * Focuses an element once the view that has it is shown: after a route change the old view's element (`stale`) may
 * still be there until the new view renders.
 */
function focusWhenReady(selector: string, stale: Element | null = null, tries = 60): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el && el !== stale) el.focus();
  else if (tries > 0) requestAnimationFrame(() => focusWhenReady(selector, stale, tries - 1));
}

const current = (): Conversation | null => {
  const r = route.value;
  return r.view === 'narrow' ? conversationOf(r.terms) : null;
};

function messageConversation(m: Message): Conversation {
  if (m.type === 'stream') return { kind: 'stream', streamId: m.stream_id!, topic: m.subject };
  return { kind: 'dm', userIds: conversationKey(m, me.value).slice(2).split(',').map(Number) };
}

/** Opens a conversation (or stays in it) and focuses a field of its compose box, closing a new message's box. */
function open(conversation: Conversation, focus: string): void {
  const r = route.value;
  const there = conversationTerms(conversation);
  const same = r.view === 'narrow' && JSON.stringify(conversationOf(r.terms)) === JSON.stringify(conversation);
  // The field now on the page may be the previous view's, or the new message's about to give way to the
  // conversation's own.
  const stale = same && newMessage.value === null ? null : document.querySelector(focus);
  closeNewMessage();
  if (!same) navigate({ view: 'narrow', terms: there });
  focusWhenReady(focus, stale);
}

/** Where `d` came to the drafts from, for `d` again (never history.back(): the drafts may be the first page). */
let beforeDrafts: Route | null = null;

const ACTIONS: Record<Action, () => void> = {
  // c: a new message in the channel being read (its compose box: the topic field, filled in a topic), else a new
  // channel message whose channel is still to choose (Zulip's compose_actions.start for "stream").
  compose() {
    const here = current();
    if (here?.kind === 'stream') open(here, '#compose-topic');
    else openNewMessage({ kind: 'stream' });
  },
  // x: a new direct message, its recipients to choose (those of the conversation being read, if it is one).
  dm() {
    const here = current();
    openNewMessage({ kind: 'dm', userIds: here?.kind === 'dm' ? here.userIds.filter((id) => id !== me.value) : [] });
  },
  reply() {
    const messages = view.value.messages;
    if (route.value.view !== 'narrow' || messages.length === 0) return;
    const m = messages.find((x) => x.id === selectedMessage.value) ?? messages[messages.length - 1];
    const here = current();
    open(here && inNarrow(m, here, me.value) ? here : messageConversation(m), '#compose-content');
  },
  // Shift+R: a direct message to the selected message's sender.
  replyToSender() {
    const m = selectedOrLast();
    if (m) open({ kind: 'dm', userIds: [m.sender_id] }, '#compose-content');
  },
  next: () => select(1),
  previous: () => select(-1),
  nextUnread() {
    const skip = (e: UnreadEntry) => isMutedPlace(whereOf(e.streamId!, e.topic ?? ''));
    goToNextUnread(unread.value, skip);
  },
  // Shift+N: the next unread topic one follows (muted channel or not); p: the next unread direct message.
  nextUnreadFollowed() {
    goToNextUnread(followedUnread(unread.value, topicPolicy), () => false);
  },
  nextUnreadDm() {
    goToNextUnread(dmUnread(unread.value), () => false);
  },
  // s: the selected message's topic or direct message conversation; from its topic, its channel.
  conversation() {
    const here = current();
    const m = selectedOrLast();
    if (!m) {
      if (here?.kind === 'stream' && here.topic !== undefined) go({ kind: 'stream', streamId: here.streamId });
      return;
    }
    const there = messageConversation(m);
    const inTopic =
      here?.kind === 'stream' && here.topic !== undefined && JSON.stringify(here) === JSON.stringify(there);
    go(inTopic && there.kind === 'stream' ? { kind: 'stream', streamId: there.streamId } : there);
  },
  inbox: () => navigate({ view: 'inbox' }),
  recent: () => navigate({ view: 'recent' }),
  feed: () => navigate({ view: 'narrow', terms: [] }),
  starred: () => navigate({ view: 'narrow', terms: [{ operator: 'is', operand: 'starred' }] }),
  // d: the drafts, and back from them.
  drafts() {
    if (route.value.view === 'drafts') navigate(beforeDrafts ?? { view: 'inbox' });
    else {
      beforeDrafts = route.value;
      navigate({ view: 'drafts' });
    }
  },
  // v: the selected message's (first) image, enlarged.
  viewImage() {
    const m = selectedOrLast();
    const link = m
      ? document.querySelector<HTMLElement>(`.message[data-id="${m.id}"] .message_inline_image:not(.youtube-video) a`)
      : null;
    link?.click();
  },
  search: () => focusWhenReady('#search'),
  // q and w: the sidebar's "Filter channels" and "Search people" (Zulip's), their section opened if collapsed.
  filterChannels: () => focusSidebarBox('channels', '#channel-filter'),
  searchPeople: () => focusSidebarBox('people', '#people-filter'),
  escape() {
    if (helpOpen.value) helpOpen.value = false;
    else if (cardUser.value !== null) cardUser.value = null;
    else if (isTyping(document.activeElement)) (document.activeElement as HTMLElement).blur();
    else if (newMessage.value !== null) closeNewMessage();
    else selectedMessage.value = null;
  },
  help: () => (helpOpen.value = !helpOpen.value),
};

/** The selected message of the narrow shown, else its newest. */
function selectedOrLast(): Message | undefined {
  const messages = view.value.messages;
  if (route.value.view !== 'narrow' || messages.length === 0) return undefined;
  return messages.find((x) => x.id === selectedMessage.value) ?? messages[messages.length - 1];
}

const go = (conversation: Conversation) => navigate({ view: 'narrow', terms: conversationTerms(conversation) });

function goToNextUnread(entries: ReadonlyMap<number, UnreadEntry>, skip: (entry: UnreadEntry) => boolean): void {
  const order = subscriptions.value.map((s) => s.stream_id);
  const next = nextUnread(entries, order, current(), skip);
  if (next) go(next);
}

function focusSidebarBox(section: SectionName, selector: string): void {
  if (collapsed.value.has(section)) toggleSection(section);
  focusWhenReady(selector);
}

function select(by: 1 | -1): void {
  if (route.value.view !== 'narrow') return;
  const next = step(
    view.value.messages.map((m) => m.id),
    selectedMessage.value,
    by,
  );
  selectedMessage.value = next;
  if (next !== null) document.querySelector(`.message[data-id="${next}"]`)?.scrollIntoView({ block: 'nearest' });
}

export function Shortcuts() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const action = actionFor(event, isTyping(event.target as Element));
      if (!action) return;
      // In a dialog (the card, the list of shortcuts) only Esc acts.
      if ((event.target as Element).closest?.('[role="dialog"]') && action !== 'escape') return;
      // While another modal dialog is open (the enlarged image), its keys are its own: its Esc closes it and the
      // selected message stays selected.
      const modal = document.querySelector('[role="dialog"][aria-modal="true"]');
      if (modal && !modal.matches('.shortcut-help, .user-card')) return;
      event.preventDefault();
      ACTIONS[action]();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // A new narrow starts with nothing selected.
  const key = JSON.stringify(route.value);
  useEffect(() => void (selectedMessage.value = null), [key]);
  return helpOpen.value ? <ShortcutHelp onClose={() => (helpOpen.value = false)} /> : null;
}

function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="shortcut-help" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        {SHORTCUT_GROUPS.map(([group, list]) => (
          <section key={group} aria-label={group}>
            <h3>{group}</h3>
            <dl>
              {list.map(([key, what]) => (
                <div key={key} class="shortcut">
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <button ref={close} class="close-help" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
