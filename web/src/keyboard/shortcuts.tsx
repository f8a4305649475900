/**
 * The keyboard: Zulip's main shortcuts (keys.ts) on the whole page, and the list `?` shows. Keys typed into a field
 * are the field's, except Esc, which leaves it.
 */
import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { navigate, route } from '../app/router';
import { conversationOf, conversationTerms, type Conversation } from '../lib/narrow';
import { selectedMessage } from '../conversations/selection';
import { whereOf } from '../notifications/notify';
import { isMutedPlace } from '../notifications/rules';
import { cardUser } from '../people/card';
import { collapsed, toggleSection, type SectionName } from '../sidebar/state';
import { closeNewMessage, newMessage, openNewMessage } from '../compose/new-message';
import { conversationKey, inNarrow, type Message } from '../store/model';
import { me, subscriptions, unread, view } from '../store/store';
import { actionFor, nextUnread, SHORTCUTS, step, type Action } from './keys';

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
  next: () => select(1),
  previous: () => select(-1),
  nextUnread() {
    const order = subscriptions.value.map((s) => s.stream_id);
    const skip = (e: { streamId?: number; topic?: string }) => isMutedPlace(whereOf(e.streamId!, e.topic ?? ''));
    const next = nextUnread(unread.value, order, current(), skip);
    if (next) navigate({ view: 'narrow', terms: conversationTerms(next) });
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
        <dl>
          {SHORTCUTS.map(([key, what]) => (
            <div key={key} class="shortcut">
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button ref={close} class="close-help" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
