/**
 * The Inbox, as Zulip's: what is unread, in a "Direct messages" group and one group per channel (a header row with
 * the channel's colour and count, collapsing its rows; kept in localStorage), one row per conversation with its
 * count, a mention marker and a "mark as read" action shown on hover or focus. Keyboard: ↑/↓ move between rows
 * (one tab stop, a roving tabindex), Enter opens, ←/→ collapse and expand the group. Above them, Zulip's choice of
 * topics (all, unmuted, followed; kept in localStorage) and a filter box.
 */
import { useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import * as client from '../lib/client';
import { conversationTerms, type Conversation } from '../lib/narrow';
import { hrefFor } from '../lib/router';
import { shownUnread, subscriptions, unreadWhere, userName } from '../store/store';
import { inboxKeeps, type InboxFilter } from '../store/visibility';
import {
  groupOf,
  filterInbox,
  inboxGroups,
  loadCollapsed,
  saveCollapsed,
  stepRow,
  visibleRows,
  type InboxGroup,
  type InboxRow,
} from './groups';
import './inbox.css';

const link = (conversation: Conversation) => hrefFor({ view: 'narrow', terms: conversationTerms(conversation) });
const dmLabel = (ids: number[]) => ids.map((id) => userName(id) ?? `#${id}`).join(', ');
const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

const CHOICES: { value: InboxFilter; label: string }[] = [
  { value: 'all', label: 'All topics' },
  { value: 'unmuted', label: 'Unmuted topics' },
  { value: 'followed', label: 'Followed topics' },
];
const CHOICE_STORE = 'confab.inbox.topics';
/** The choice of topics last made (unmuted, what is counted, until one is made). */
function loadChoice(): InboxFilter {
  try {
    const stored = storage()?.getItem(CHOICE_STORE);
    return CHOICES.find((c) => c.value === stored)?.value ?? 'unmuted';
  } catch {
    return 'unmuted';
  }
}
function saveChoice(choice: InboxFilter): void {
  try {
    storage()?.setItem(CHOICE_STORE, choice);
  } catch {
    /* storage full or refused: the choice lasts for this page only */
  }
}

/** Marks everything in a narrow read, on the server (POST /messages/flags/narrow, in batches until done). */
async function markNarrowRead(narrow: unknown[]): Promise<void> {
  let anchor = 'oldest';
  for (let i = 0; i < 100; i++) {
    const answer = await client.messages.flagsNarrow({
      anchor,
      include_anchor: anchor === 'oldest',
      num_before: 0,
      num_after: 1000,
      narrow,
      op: 'add',
      flag: 'read',
    });
    if (answer.found_newest || answer.last_processed_id === null) return;
    anchor = String(answer.last_processed_id);
  }
}

function Count({ n, mentioned }: { n: number; mentioned: boolean }) {
  return (
    <>
      {mentioned && (
        <span class="inbox-mention" title="You were mentioned" aria-label="mentioned">
          @
        </span>
      )}
      <span class="unread" aria-label={`${n} unread`}>
        {n}
      </span>
    </>
  );
}

function MarkRead(props: { class: string; label: string; tabIndex: number; onClick: () => void }) {
  return (
    <button
      class={`inbox-action ${props.class}`}
      aria-label={props.label}
      title={props.label}
      tabIndex={props.tabIndex}
      onClick={props.onClick}
    >
      <span aria-hidden="true">✓</span>
    </button>
  );
}

const rowHref = (group: InboxGroup, row: InboxRow) =>
  group.streamId === undefined
    ? link({ kind: 'dm', userIds: row.userIds! })
    : link({ kind: 'stream', streamId: group.streamId, topic: row.topic! });

/**
 * What is unread: by default as the sidebar and the title count it (nothing from muted topics or muted channels), or
 * every topic, or only the followed ones.
 */
export function Inbox() {
  const subs = subscriptions.value;
  const [filter, setFilter] = useState('');
  const [choice, setChoice] = useState(loadChoice);
  // The unmuted choice is the store's own count; the others are read from every unread message.
  const unread = choice === 'unmuted' ? shownUnread.value : unreadWhere((where) => inboxKeeps(choice, where));
  const all = inboxGroups(
    unread.values(),
    (id) => {
      const s = subs.find((x) => x.stream_id === id) as
        { name: string; color?: string; pin_to_top?: boolean } | undefined;
      return s && { name: s.name, color: s.color, pinned: s.pin_to_top };
    },
    dmLabel,
  );
  const groups = filterInbox(all, filter, dmLabel);
  const [collapsed, setCollapsed] = useState(() => loadCollapsed(storage()));
  const [active, setActive] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const keys = visibleRows(groups, collapsed);
  // The one row in the tab order: the one last focused, or the first.
  const current = active !== null && keys.includes(active) ? active : (keys[0] ?? null);

  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    void action()
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  const focusRow = (key: string) => {
    setActive(key);
    list.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"] .inbox-focus`)?.focus();
  };
  const setGroup = (key: string, collapse: boolean) => {
    if (collapsed.has(key) === collapse) return;
    const next = new Set(collapsed);
    if (collapse) next.add(key);
    else next.delete(key);
    saveCollapsed(storage(), next);
    setCollapsed(next);
  };
  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLDivElement>) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-row-key]');
    if (!row || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const key = row.dataset.rowKey!;
    const group = groupOf(groups, key);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const next = stepRow(keys, key, event.key === 'ArrowDown' ? 1 : -1);
      if (next !== null) focusRow(next);
    } else if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && group) {
      setGroup(group.key, event.key === 'ArrowLeft');
      // A collapsed group's rows are gone: the focus goes to its header.
      if (event.key === 'ArrowLeft' && key !== group.key) focusRow(group.key);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };
  // A click anywhere on a row (not on its action) opens the conversation.
  const onRowClick = (event: MouseEvent) => {
    const target = event.target as Element;
    if (target.closest('a, button')) return;
    target.closest('[data-row-key]')?.querySelector<HTMLElement>('.inbox-focus')?.click();
  };
  const onFocus = (event: FocusEvent) => {
    const key = (event.target as Element).closest<HTMLElement>('[data-row-key]')?.dataset.rowKey;
    if (key) setActive(key);
  };
  const total = unread.size;

  return (
    <section class="inbox" aria-labelledby="view-title">
      <header class="view-header">
        <h2 id="view-title">Inbox</h2>
        <button
          id="mark-all-read"
          disabled={busy || total === 0}
          onClick={() => run(() => client.messages.markAllRead())}
        >
          Mark all as read
        </button>
      </header>
      <div class="inbox-tools">
        <label class="inbox-choice">
          <span class="visually-hidden">Show</span>
          <select
            id="inbox-topics"
            value={choice}
            onChange={(e) => {
              const next = e.currentTarget.value as InboxFilter;
              saveChoice(next);
              setChoice(next);
            }}
          >
            {CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        {total > 0 && (
          <input
            id="inbox-filter"
            class="inbox-filter"
            type="search"
            aria-label="Filter conversations"
            placeholder="Filter conversations"
            value={filter}
            onInput={(e) => setFilter(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && filter) {
                e.preventDefault();
                e.stopPropagation();
                setFilter('');
              }
            }}
          />
        )}
      </div>
      {total === 0 && (
        <p class="empty" role="status">
          {choice === 'followed' ? 'No unread messages in topics you follow.' : 'You have no unread messages.'}
        </p>
      )}
      {total > 0 && groups.length === 0 && (
        <p class="empty" role="status">
          No unread conversation matches “{filter}”.
        </p>
      )}
      <div class="inbox-list" ref={list} onKeyDown={onKeyDown} onFocusCapture={onFocus}>
        {groups.map((group) => {
          const open = !collapsed.has(group.key);
          const isDm = group.streamId === undefined;
          const title = isDm ? group.name : `#${group.name}`;
          const rowsId = `inbox-rows-${group.key.replace(/[^a-z0-9]/gi, '-')}`;
          const headerTab = current === group.key ? 0 : -1;
          return (
            <section
              key={group.key}
              class={`inbox-group${open ? '' : ' collapsed'}`}
              data-inbox-group={group.key}
              data-inbox-channel={isDm ? undefined : group.name}
              aria-label={title}
              style={group.color ? { '--channel-color': group.color } : undefined}
            >
              <div class="inbox-header" data-row-key={group.key} onClick={onRowClick}>
                <h3>
                  <button
                    class="inbox-toggle inbox-focus"
                    aria-expanded={open}
                    aria-controls={rowsId}
                    tabIndex={headerTab}
                    onClick={() => setGroup(group.key, open)}
                  >
                    <span class="inbox-caret" aria-hidden="true">
                      {open ? '▾' : '▸'}
                    </span>
                    {!isDm && <span class="inbox-swatch" aria-hidden="true" />}
                    {title}
                  </button>
                  <Count n={group.count} mentioned={group.mentioned} />
                </h3>
                {!isDm && (
                  <MarkRead
                    class="mark-channel-read"
                    label={`Mark as read: ${title}`}
                    tabIndex={headerTab}
                    onClick={() => run(() => client.messages.markChannelRead(group.streamId))}
                  />
                )}
              </div>
              {open && (
                <ul id={rowsId}>
                  {group.rows.map((row) => {
                    const tab = current === row.key ? 0 : -1;
                    const name = isDm ? dmLabel(row.userIds!) : row.topic!;
                    return (
                      <li
                        key={row.key}
                        class="inbox-row"
                        data-row-key={row.key}
                        data-inbox-topic={isDm ? undefined : row.topic}
                        data-dm={isDm ? row.userIds!.join(',') : undefined}
                        onClick={onRowClick}
                      >
                        <a class="inbox-focus" href={rowHref(group, row)} tabIndex={tab}>
                          {name}
                        </a>
                        <Count n={row.count} mentioned={row.mentioned} />
                        <MarkRead
                          class={isDm ? 'mark-dm-read' : 'mark-topic-read'}
                          label={
                            isDm ? `Mark as read: direct messages with ${name}` : `Mark as read: ${name} in ${title}`
                          }
                          tabIndex={tab}
                          onClick={() =>
                            run(() =>
                              isDm
                                ? markNarrowRead([{ operator: 'dm', operand: row.userIds }])
                                : client.messages.markTopicRead(group.streamId, row.topic),
                            )
                          }
                        />
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
