import type { UnreadEntry } from '../src/store/model';
import { filterInbox, groupOf, inboxGroups, loadCollapsed, saveCollapsed, stepRow, visibleRows } from '../src/inbox/groups';
import { inboxKeeps, type InboxFilter } from '../src/store/visibility';
import { Policy } from '../src/store/personal';

const channels: Record<number, { name: string; color?: string; pinned?: boolean }> = {
  1: { name: 'verona', color: '#76ce90' },
  2: { name: 'Denmark', color: '#fae589' },
  3: { name: 'Scotland', pinned: true },
};
const info = (id: number) => channels[id];
const topic = (streamId: number, t: string, mentioned = false): UnreadEntry => ({
  key: `s:${streamId}`,
  streamId,
  topic: t,
  mentioned,
});
const dm = (ids: string, mentioned = false): UnreadEntry => ({ key: `d:${ids}`, mentioned });

describe("the Inbox's groups", () => {
  it('puts direct messages first, then pinned channels, then channels by name regardless of case', () => {
    const groups = inboxGroups([topic(1, 'feud'), topic(2, 'ghosts'), dm('7'), topic(3, 'heath')], info);
    expect(groups.map((g) => [g.key, g.name])).toEqual([
      ['dm', 'Direct messages'],
      ['s:3', 'Scotland'],
      ['s:2', 'Denmark'],
      ['s:1', 'verona'],
    ]);
    expect(groups[2]!.color).toBe('#fae589');
  });

  it('counts each conversation and each group, and marks those that mention the user', () => {
    const groups = inboxGroups(
      [topic(2, 'ghosts'), topic(2, 'ghosts', true), topic(2, 'graves'), dm('7'), dm('7'), dm('5,7', true)],
      info,
    );
    const denmark = groups.find((g) => g.key === 's:2')!;
    expect(denmark.rows.map((r) => [r.key, r.topic, r.count, r.mentioned])).toEqual([
      ['t:2:ghosts', 'ghosts', 2, true],
      ['t:2:graves', 'graves', 1, false],
    ]);
    expect([denmark.count, denmark.mentioned]).toEqual([3, true]);
    const dms = groups[0]!;
    expect(dms.rows.map((r) => [r.userIds, r.count, r.mentioned])).toEqual([
      [[5, 7], 1, true],
      [[7], 2, false],
    ]);
    expect(dms.count).toBe(3);
  });

  it('orders direct messages by the names given, topics by name; an unknown channel shows its id', () => {
    const names: Record<string, string> = { '5': 'Zoe', '7': 'Anna' };
    const groups = inboxGroups(
      [dm('5'), dm('7'), topic(9, 'b'), topic(9, 'A')],
      () => undefined,
      (ids) => ids.map((id) => names[id]).join(', '),
    );
    expect(groups[0]!.rows.map((r) => r.key)).toEqual(['d:7', 'd:5']);
    expect(groups[1]!.name).toBe('9');
    expect(groups[1]!.rows.map((r) => r.topic)).toEqual(['A', 'b']);
  });

  it('has no groups when nothing is unread', () => {
    expect(inboxGroups([], info)).toEqual([]);
  });
});

describe("the Inbox's keyboard rows", () => {
  const groups = inboxGroups([topic(1, 'feud'), topic(2, 'ghosts'), topic(2, 'graves'), dm('7')], info);

  it('moves through headers and the rows of open groups, skipping collapsed ones', () => {
    expect(visibleRows(groups, new Set())).toEqual(['dm', 'd:7', 's:2', 't:2:ghosts', 't:2:graves', 's:1', 't:1:feud']);
    const keys = visibleRows(groups, new Set(['s:2']));
    expect(keys).toEqual(['dm', 'd:7', 's:2', 's:1', 't:1:feud']);
    expect(stepRow(keys, 's:2', 1)).toBe('s:1');
    expect(stepRow(keys, 's:1', -1)).toBe('s:2');
  });

  it('stops at the ends and starts at the first row', () => {
    const keys = visibleRows(groups, new Set());
    expect(stepRow(keys, 'dm', -1)).toBe('dm');
    expect(stepRow(keys, 't:1:feud', 1)).toBe('t:1:feud');
    expect(stepRow(keys, null, 1)).toBe('dm');
    expect(stepRow(keys, 't:9:gone', -1)).toBe('dm');
    expect(stepRow([], null, 1)).toBeNull();
  });

  it('finds the group of a header or a row', () => {
    expect(groupOf(groups, 't:2:graves')?.key).toBe('s:2');
    expect(groupOf(groups, 's:1')?.key).toBe('s:1');
    expect(groupOf(groups, 'x')).toBeUndefined();
  });
});

describe("the Inbox's collapsed groups", () => {
  it('survive a round trip through storage and ignore what is not theirs', () => {
    const kept = new Map<string, string>();
    const storage = {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
    saveCollapsed(storage, new Set(['s:2', 'dm']));
    expect([...loadCollapsed(storage)]).toEqual(['dm', 's:2']);
    kept.set([...kept.keys()][0]!, 'not json');
    expect(loadCollapsed(storage).size).toBe(0);
    kept.set([...kept.keys()][0]!, '[1, "s:3", null]');
    expect([...loadCollapsed(storage)]).toEqual(['s:3']);
    expect(loadCollapsed(undefined).size).toBe(0);
  });
});

describe('the Inbox’s filter', () => {
  const entries = [
    { key: 't:1:release notes', streamId: 1, topic: 'release notes', mentioned: false },
    { key: 't:1:lunch', streamId: 1, topic: 'lunch', mentioned: true },
    { key: 't:2:lunch', streamId: 2, topic: 'lunch', mentioned: false },
    { key: 'd:7', mentioned: false },
  ];
  const names: Record<number, string> = { 1: 'Verona', 2: 'Denmark' };
  const groups = inboxGroups(entries as never, (id) => ({ name: names[id] }), (ids) => (ids[0] === 7 ? 'Cordelia' : '?'));
  const shown = (q: string) =>
    filterInbox(groups, q, (ids) => (ids[0] === 7 ? 'Cordelia' : '?')).map((g) => [g.name, g.rows.map((r) => r.key), g.count]);

  it('keeps the conversations whose topic, channel or people have a word starting with what is typed', () => {
    expect(shown('')).toEqual(shown(' '));
    expect(shown('LUN')).toEqual([
      ['Denmark', ['t:2:lunch'], 1],
      ['Verona', ['t:1:lunch'], 1],
    ]);
    expect(shown('notes')).toEqual([['Verona', ['t:1:release notes'], 1]]);
    expect(shown('veron')).toEqual([['Verona', ['t:1:lunch', 't:1:release notes'], 2]]);
    expect(shown('cord')).toEqual([['Direct messages', ['d:7'], 1]]);
    expect(shown('otes')).toEqual([]);
  });
});

describe('the Inbox’s choice of topics (all, unmuted, followed)', () => {
  const sub = (is_muted = false) => ({ is_muted, desktop_notifications: null, audible_notifications: null });
  const places = {
    dm: null,
    plain: { subscription: sub(), policy: Policy.inherit },
    mutedTopic: { subscription: sub(), policy: Policy.muted },
    followed: { subscription: sub(), policy: Policy.followed },
    mutedChannel: { subscription: sub(true), policy: Policy.inherit },
    followedInMutedChannel: { subscription: sub(true), policy: Policy.followed },
    unsubscribed: { policy: Policy.followed },
  };
  const kept = (filter: InboxFilter) =>
    Object.entries(places)
      .filter(([, where]) => inboxKeeps(filter, where))
      .map(([name]) => name);

  it('keeps every subscribed topic and direct messages for all, what is counted for unmuted, followed topics only', () => {
    expect(kept('all')).toEqual(['dm', 'plain', 'mutedTopic', 'followed', 'mutedChannel', 'followedInMutedChannel']);
    expect(kept('unmuted')).toEqual(['dm', 'plain', 'followed', 'followedInMutedChannel']);
    expect(kept('followed')).toEqual(['followed', 'followedInMutedChannel']);
  });
});
