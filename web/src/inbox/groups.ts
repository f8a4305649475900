/**
 * The Inbox's groups, as Zulip's inbox lays them out: direct messages first, then one group per channel (pinned
 * channels first, then by name), each with its conversations, their unread counts and whether one mentions the
 * user. Pure: the view gives it the unread entries and what it knows of the channels.
 */
import type { UnreadEntry } from '../store/model';
import { channelMatches } from '../sidebar/filter';

export interface InboxRow {
  /** `d:<ids>` for a direct-message conversation, `t:<stream>:<topic>` for a topic. */
  key: string;
  /** The topic (channel rows), or undefined (direct messages). */
  topic?: string;
  /** The other people's ids (direct messages). */
  userIds?: number[];
  count: number;
  mentioned: boolean;
}

export interface InboxGroup {
  /** `dm` for direct messages, `s:<stream id>` for a channel. */
  key: string;
  streamId?: number;
  name: string;
  color?: string;
  pinned: boolean;
  count: number;
  mentioned: boolean;
  rows: InboxRow[];
}

export interface ChannelInfo {
  name: string;
  color?: string;
  pinned?: boolean;
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) || a.localeCompare(b);

/** Groups the unread entries; `channel` tells a channel's name, colour and pin. */
export function inboxGroups(
  entries: Iterable<UnreadEntry>,
  channel: (streamId: number) => ChannelInfo | undefined,
  dmName: (userIds: number[]) => string = (ids) => ids.join(','),
): InboxGroup[] {
  const dms = new Map<string, InboxRow>();
  const channels = new Map<number, Map<string, InboxRow>>();
  for (const e of entries) {
    let row: InboxRow | undefined;
    if (e.streamId === undefined) {
      row = dms.get(e.key);
      if (!row) {
        const userIds = e.key
          .slice(2)
          .split(',')
          .filter((s) => s !== '')
          .map(Number);
        row = { key: e.key, userIds, count: 0, mentioned: false };
        dms.set(e.key, row);
      }
    } else {
      const topic = e.topic ?? '';
      const topics = channels.get(e.streamId) ?? new Map<string, InboxRow>();
      channels.set(e.streamId, topics);
      row = topics.get(topic);
      if (!row) {
        row = { key: `t:${e.streamId}:${topic}`, topic, count: 0, mentioned: false };
        topics.set(topic, row);
      }
    }
    row.count += 1;
    if (e.mentioned) row.mentioned = true;
  }
  const group = (key: string, rows: InboxRow[], info: ChannelInfo, streamId?: number): InboxGroup => ({
    key,
    streamId,
    name: info.name,
    color: info.color,
    pinned: info.pinned ?? false,
    count: rows.reduce((n, r) => n + r.count, 0),
    mentioned: rows.some((r) => r.mentioned),
    rows,
  });
  const groups: InboxGroup[] = [];
  if (dms.size > 0) {
    const rows = [...dms.values()].sort((a, b) => byName(dmName(a.userIds!), dmName(b.userIds!)));
    groups.push(group('dm', rows, { name: 'Direct messages' }));
  }
  const channelGroups = [...channels].map(([streamId, topics]) => {
    const rows = [...topics.values()].sort((a, b) => byName(a.topic!, b.topic!));
    return group(`s:${streamId}`, rows, channel(streamId) ?? { name: String(streamId) }, streamId);
  });
  channelGroups.sort((a, b) => Number(b.pinned) - Number(a.pinned) || byName(a.name, b.name));
  return [...groups, ...channelGroups];
}

/**
 * The groups the Inbox's filter box keeps, as Zulip's inbox search: the conversations whose channel or topic (or, for
 * direct messages, whose people) has a word starting with what is typed, whatever the case and accents; a group's
 * counts are those of the rows it keeps. An empty filter keeps everything.
 */
export function filterInbox(
  groups: InboxGroup[],
  query: string,
  dmName: (userIds: number[]) => string = (ids) => ids.join(','),
): InboxGroup[] {
  if (query.trim() === '') return groups;
  const kept: InboxGroup[] = [];
  for (const g of groups) {
    const rows =
      g.streamId !== undefined && channelMatches(g.name, query)
        ? g.rows
        : g.rows.filter((r) => channelMatches(r.topic ?? dmName(r.userIds ?? []), query));
    if (rows.length > 0)
      kept.push({
        ...g,
        rows,
        count: rows.reduce((n, r) => n + r.count, 0),
        mentioned: rows.some((r) => r.mentioned),
      });
  }
  return kept;
}

/** The rows a person can move between: every group's header, and the rows of the groups not collapsed. */
export function visibleRows(groups: InboxGroup[], collapsed: ReadonlySet<string>): string[] {
  const keys: string[] = [];
  for (const g of groups) {
    keys.push(g.key);
    if (!collapsed.has(g.key)) for (const r of g.rows) keys.push(r.key);
  }
  return keys;
}

/** The row `by` steps from `current` (clamped at the ends; the first row when `current` is gone). */
export function stepRow(keys: string[], current: string | null, by: 1 | -1): string | null {
  if (keys.length === 0) return null;
  const at = current === null ? -1 : keys.indexOf(current);
  if (at === -1) return keys[0];
  return keys[Math.min(keys.length - 1, Math.max(0, at + by))];
}

/** The group a row belongs to. */
export function groupOf(groups: InboxGroup[], key: string): InboxGroup | undefined {
  return groups.find((g) => g.key === key || g.rows.some((r) => r.key === key));
}

const STORE = 'confab.inbox.collapsed';

/** The collapsed groups, as kept in localStorage. */
export function loadCollapsed(storage: Pick<Storage, 'getItem'> | undefined): Set<string> {
  try {
    const raw = JSON.parse(storage?.getItem(STORE) ?? '[]') as unknown;
    return new Set(Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

export function saveCollapsed(storage: Pick<Storage, 'setItem'> | undefined, collapsed: ReadonlySet<string>): void {
  try {
    storage?.setItem(STORE, JSON.stringify([...collapsed].sort()));
  } catch {
    /* storage full or refused: the state lasts for this page only */
  }
}
