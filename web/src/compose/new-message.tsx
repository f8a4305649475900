/**
 * A new message from anywhere, as Zulip's `c` and `x` open it: the compose box with its recipient still to choose —
 * a channel (then the topic), or the people of a direct message — shown below the view being read. While it is open
 * the conversation's own compose box gives way to it (one compose box on the page, as in Zulip).
 */
import { signal } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { hrefFor, route } from '../lib/router';
import { conversationTerms } from '../lib/narrow';
import type { Narrow } from '../store/model';
import { channelName, emoji, me, subscriptions, userName, users } from '../store/store';
import { Compose } from './compose';

/** What the new message is for: a channel (chosen in the box, or given) or people (chosen in the box, or given). */
export type NewMessage = { kind: 'stream'; streamId?: number; topic?: string } | { kind: 'dm'; userIds?: number[] };

/** The new message being written (null: none); `opened` tells one opening from the next, which starts afresh. */
export const newMessage = signal<(NewMessage & { opened: number }) | null>(null);
/** Where the last new message went (a link to it is shown until one goes elsewhere). */
const sentTo = signal<Narrow | null>(null);

let openings = 0;
export function openNewMessage(what: NewMessage): void {
  sentTo.value = null;
  newMessage.value = { ...what, opened: ++openings };
}
export const closeNewMessage = () => void (newMessage.value = null);

interface Option {
  key: string;
  label: string;
  pick: () => void;
}

/**
 * A text field that completes from a list (a combobox): typing narrows the options, arrows move, Enter or Tab
 * picks. Enter never sends the form it is in; Backspace in the empty field calls `onBackspace`.
 */
function Autocomplete({
  id,
  label,
  placeholder,
  query,
  setQuery,
  options,
  onEnter,
  onBackspace,
}: {
  id: string;
  label: string;
  placeholder: string;
  query: string;
  setQuery: (q: string) => void;
  options: Option[];
  onEnter?: () => void;
  onBackspace?: () => void;
}) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  const shown = open && query.trim() !== '' ? options.slice(0, 8) : [];
  const at = Math.min(index, Math.max(shown.length - 1, 0));
  return (
    <div class="autocomplete">
      <label for={id} class="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        placeholder={placeholder}
        autoComplete="off"
        value={query}
        role="combobox"
        aria-expanded={shown.length > 0}
        aria-controls={`${id}-options`}
        aria-autocomplete="list"
        aria-activedescendant={shown.length > 0 ? `${id}-option-${at}` : undefined}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setIndex(0);
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            if (shown.length === 0) return;
            e.preventDefault();
            setIndex((at + (e.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            if (shown.length > 0) shown[at].pick();
            else onEnter?.();
          } else if (e.key === 'Tab' && !e.shiftKey && shown.length > 0) {
            shown[at].pick();
          } else if (e.key === 'Escape' && shown.length > 0) {
            e.preventDefault();
            setOpen(false);
          } else if (e.key === 'Backspace' && query === '') {
            onBackspace?.();
          }
        }}
      />
      <ul id={`${id}-options`} class="mentions" role="listbox" aria-label={label} hidden={shown.length === 0}>
        {shown.map((o, i) => (
          <li
            key={o.key}
            id={`${id}-option-${i}`}
            role="option"
            aria-selected={i === at}
            class={i === at ? 'selected' : ''}
            onMouseDown={(e) => {
              e.preventDefault();
              o.pick();
            }}
          >
            {o.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

const matches = (text: string, query: string) => text.toLowerCase().includes(query.trim().toLowerCase());

/** Focuses the field once it is rendered. */
function focusSoon(selector: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());
}

/** The channel field: subscribed channels by name; the exact name typed counts as chosen too. */
function ChannelPicker({ streamId, onChange }: { streamId?: number; onChange: (id?: number) => void }) {
  const [query, setQuery] = useState(streamId !== undefined ? (channelName(streamId) ?? '') : '');
  const channels = subscriptions.value.filter((s) => !s.is_archived);
  const choose = (id: number, name: string) => {
    setQuery(name);
    onChange(id);
  };
  return (
    <Autocomplete
      id="compose-channel"
      label="Channel"
      placeholder="Channel"
      query={query}
      setQuery={(q) => {
        setQuery(q);
        const exact = channels.find((s) => s.name.toLowerCase() === q.trim().toLowerCase());
        onChange(exact?.stream_id);
      }}
      options={channels
        .filter((s) => matches(s.name, query) && s.stream_id !== streamId)
        .map((s) => ({
          key: String(s.stream_id),
          label: `#${s.name}`,
          pick: () => {
            choose(s.stream_id, s.name);
            focusSoon('#compose-topic');
          },
        }))}
      onEnter={() => streamId !== undefined && focusSoon('#compose-topic')}
    />
  );
}

/** The people of a direct message: chosen ones as removable names, and a field that finds more by name or address. */
function PeoplePicker({ userIds, onChange }: { userIds: number[]; onChange: (ids: number[]) => void }) {
  const [query, setQuery] = useState('');
  const self = me.value;
  const candidates = [...users.value.values()].filter(
    (u) => u.user_id !== self && u.is_active !== false && !userIds.includes(u.user_id),
  );
  return (
    <div class="recipients">
      {userIds.length > 0 && (
        <ul class="pills" aria-label="To">
          {userIds.map((id) => (
            <li key={id} class="pill" data-recipient={id}>
              {userName(id) ?? id}
              <button
                type="button"
                aria-label={`Remove ${userName(id) ?? id}`}
                onClick={() => {
                  onChange(userIds.filter((x) => x !== id));
                  focusSoon('#compose-recipient');
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Autocomplete
        id="compose-recipient"
        label="To: name or email"
        placeholder={userIds.length > 0 ? 'Add someone' : 'To: name or email'}
        query={query}
        setQuery={setQuery}
        options={candidates
          .filter((u) => matches(u.full_name, query) || matches(u.email, query))
          .sort((a, b) => a.full_name.localeCompare(b.full_name))
          .map((u) => ({
            key: String(u.user_id),
            label: `${u.full_name} (${u.email})`,
            pick: () => {
              onChange([...userIds, u.user_id]);
              setQuery('');
            },
          }))}
        onEnter={() => userIds.length > 0 && focusSoon('#compose-content')}
        onBackspace={() => userIds.length > 0 && onChange(userIds.slice(0, -1))}
      />
    </div>
  );
}

function Panel({ what }: { what: NewMessage }) {
  const [streamId, setStreamId] = useState(what.kind === 'stream' ? what.streamId : undefined);
  const [userIds, setUserIds] = useState(what.kind === 'dm' ? (what.userIds ?? []) : []);
  const ids = [...userIds].sort((a, b) => a - b).join(',');
  const narrow = useMemo<Narrow | null>(() => {
    if (what.kind === 'stream') return streamId === undefined ? null : { kind: 'stream', streamId };
    return ids ? { kind: 'dm', userIds: ids.split(',').map(Number) } : null;
  }, [what.kind, streamId, ids]);
  const first = useRef(what.kind === 'stream' ? '#compose-channel' : '#compose-recipient');
  useEffect(() => focusSoon(first.current), []);
  return (
    <section
      class="new-message"
      aria-label={what.kind === 'stream' ? 'New message to a channel' : 'New direct message'}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        closeNewMessage();
      }}
    >
      <header>
        <h2>{what.kind === 'stream' ? 'New message' : 'New direct message'}</h2>
        <button type="button" class="close-new-message" onClick={closeNewMessage}>
          Close
        </button>
      </header>
      <Compose
        narrow={narrow}
        kind={what.kind}
        drafts={[]}
        users={[...users.value.values()].filter((u) => u.user_id !== me.value)}
        emoji={emoji.value}
        missing={what.kind === 'stream' ? 'Choose a channel' : 'Choose who to send it to'}
        recipient={
          what.kind === 'stream' ? (
            <ChannelPicker streamId={streamId} onChange={setStreamId} />
          ) : (
            <PeoplePicker userIds={userIds} onChange={setUserIds} />
          )
        }
        onSent={(where) => {
          closeNewMessage();
          sentTo.value = where;
        }}
      />
    </section>
  );
}

/** Where the last new message went, with a link to it (Zulip's "Message sent"). */
function Sent({ where }: { where: Narrow }) {
  const label =
    where.kind === 'stream'
      ? `#${channelName(where.streamId) ?? where.streamId} > ${where.topic ?? ''}`
      : where.userIds.map((id) => userName(id) ?? id).join(', ');
  return (
    <p class="new-message sent" role="status">
      Message sent to <a href={hrefFor({ view: 'narrow', terms: conversationTerms(where) })}>{label}</a>
      <button type="button" class="link-like" onClick={() => (sentTo.value = null)}>
        Dismiss
      </button>
    </p>
  );
}

/** Whether the dock below the view has something to show (the page makes room for it). */
export const docked = () => newMessage.value !== null || sentTo.value !== null;

/** The new message being written, or the note that it went. */
export function NewMessageDock() {
  const open = newMessage.value;
  const sent = sentTo.value;
  // The note stays until one goes elsewhere.
  const here = JSON.stringify(route.value);
  const shownAt = useRef(here);
  useEffect(() => {
    if (sent && shownAt.current !== here) sentTo.value = null;
    shownAt.current = here;
  }, [here]);
  if (open) return <Panel key={open.opened} what={open} />;
  return sent ? <Sent where={sent} /> : null;
}
