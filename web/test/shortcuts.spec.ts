import { actionFor, dmUnread, followedUnread, nextUnread, SHORTCUT_GROUPS, SHORTCUTS } from '../src/keyboard/keys';
import type { UnreadEntry } from '../src/store/model';

const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe("more of Zulip's keyboard shortcuts", () => {
  it('maps the navigation keys, Shift making the capital letter', () => {
    expect(actionFor(key('N'), false)).toBe('nextUnreadFollowed');
    expect(actionFor(key('p'), false)).toBe('nextUnreadDm');
    expect(actionFor(key('I'), false)).toBe('inbox');
    expect(actionFor(key('t'), false)).toBe('recent');
    expect(actionFor(key('a'), false)).toBe('feed');
    expect(actionFor(key('*'), false)).toBe('starred');
    expect(actionFor(key('d'), false)).toBe('drafts');
    expect(actionFor(key('s'), false)).toBe('conversation');
    expect(actionFor(key('R'), false)).toBe('replyToSender');
    expect(actionFor(key('v'), false)).toBe('viewImage');
    // Lower case i is not Shift+I.
    expect(actionFor(key('i'), false)).toBeNull();
  });

  it('takes Ctrl+K (and ⌘K) for search, but not while typing, and no other modifier key', () => {
    expect(actionFor(key('k', { ctrlKey: true }), false)).toBe('search');
    expect(actionFor(key('k', { metaKey: true }), false)).toBe('search');
    expect(actionFor(key('K', { ctrlKey: true }), false)).toBe('search');
    expect(actionFor(key('k', { ctrlKey: true }), true)).toBeNull();
    expect(actionFor(key('k', { ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(actionFor(key('n', { ctrlKey: true }), false)).toBeNull();
    expect(actionFor(key('k'), false)).toBe('previous');
  });

  it('leaves every new key to the field being typed in', () => {
    for (const k of ['N', 'p', 'I', 't', 'a', '*', 'd', 's', 'R', 'v']) expect(actionFor(key(k), true)).toBeNull();
  });

  it('lists every key in the help, in groups', () => {
    const keys = SHORTCUTS.map(([k]) => k);
    for (const k of ['c', 'x', 'r', 'Shift+R', 'j', 'k', 'n', 'Shift+N', 'p', 's', 'Shift+I', 't', 'a', '*', 'd'])
      expect(keys).toContain(k);
    expect(keys).toContain('/ or Ctrl+K');
    expect(SHORTCUT_GROUPS.map(([g]) => g)).toEqual(['The basics', 'Navigation', 'Search', 'Message actions']);
    expect(new Set(keys).size).toBe(keys.length);
  });

  const unread = new Map<number, UnreadEntry>([
    [1, { key: 's:10', streamId: 10, topic: 'plain' }],
    [2, { key: 's:10', streamId: 10, topic: 'followed one' }],
    [3, { key: 'd:7', mentioned: false }],
    [4, { key: 's:20', streamId: 20, topic: 'followed two' }],
    [5, { key: 'd:8,9' }],
  ]);
  const policy = (streamId: number, topic: string) => (topic.startsWith('followed') ? 3 : streamId === 20 ? 1 : 0);

  it('finds the next unread followed topic (Shift+N), passing over the others and the DMs', () => {
    const followed = followedUnread(unread, policy);
    expect([...followed.keys()]).toEqual([2, 4]);
    expect(nextUnread(followed, [10, 20], null, () => false)).toEqual({
      kind: 'stream',
      streamId: 10,
      topic: 'followed one',
    });
    expect(
      nextUnread(followed, [10, 20], { kind: 'stream', streamId: 10, topic: 'followed one' }, () => false),
    ).toEqual({ kind: 'stream', streamId: 20, topic: 'followed two' });
  });

  it('finds the next unread direct message conversation (p)', () => {
    const dms = dmUnread(unread);
    expect([...dms.keys()]).toEqual([3, 5]);
    expect(nextUnread(dms, [10, 20], null, () => false)).toEqual({ kind: 'dm', userIds: [7] });
    expect(nextUnread(dms, [10, 20], { kind: 'dm', userIds: [7] }, () => false)).toEqual({
      kind: 'dm',
      userIds: [8, 9],
    });
    expect(nextUnread(dmUnread(new Map()), [], null, () => false)).toBeNull();
  });
});
