import { actionFor, nextUnread, step } from '../src/keyboard/keys';
import type { UnreadEntry } from '../src/store/model';

const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('keyboard shortcuts', () => {
  it("maps Zulip's keys to their actions, leaves keys typed in a field alone except Esc, ignores modifiers", () => {
    expect(actionFor(key('c'), false)).toBe('compose');
    expect(actionFor(key('x'), false)).toBe('dm');
    expect(actionFor(key('r'), false)).toBe('reply');
    expect(actionFor(key('j'), false)).toBe('next');
    expect(actionFor(key('k'), false)).toBe('previous');
    expect(actionFor(key('n'), false)).toBe('nextUnread');
    expect(actionFor(key('/'), false)).toBe('search');
    expect(actionFor(key('q'), false)).toBe('filterChannels');
    expect(actionFor(key('w'), false)).toBe('searchPeople');
    expect(actionFor(key('w'), true)).toBeNull();
    expect(actionFor(key('?'), false)).toBe('help');
    expect(actionFor(key('Escape'), false)).toBe('escape');
    expect(actionFor(key('c'), true)).toBeNull();
    expect(actionFor(key('Escape'), true)).toBe('escape');
    expect(actionFor(key('c', { ctrlKey: true }), false)).toBeNull();
    expect(actionFor(key('z'), false)).toBeNull();
  });

  it('moves the selection with j and k, starting from the newest and stopping at either end', () => {
    const ids = [10, 20, 30];
    expect(step(ids, null, 1)).toBe(30);
    expect(step(ids, null, -1)).toBe(30);
    expect(step(ids, 30, -1)).toBe(20);
    expect(step(ids, 10, -1)).toBe(10);
    expect(step(ids, 30, 1)).toBe(30);
    expect(step(ids, 99, 1)).toBe(30);
    expect(step([], null, 1)).toBeNull();
  });

  it('goes to the next unread topic in channel order, then direct messages, wrapping, past muted ones', () => {
    const unread = new Map<number, UnreadEntry>([
      [1, { key: 's:5', streamId: 5, topic: 'b' }],
      [2, { key: 's:5', streamId: 5, topic: 'a' }],
      [3, { key: 's:3', streamId: 3, topic: 'z' }],
      [4, { key: 'd:9', mentioned: false }],
      [5, { key: 's:3', streamId: 3, topic: 'muted' }],
    ]);
    const skip = (e: UnreadEntry) => e.topic === 'muted';
    const order = [3, 5];
    expect(nextUnread(unread, order, null, skip)).toEqual({ kind: 'stream', streamId: 3, topic: 'z' });
    expect(nextUnread(unread, order, { kind: 'stream', streamId: 3, topic: 'z' }, skip)).toEqual({
      kind: 'stream',
      streamId: 5,
      topic: 'a',
    });
    expect(nextUnread(unread, order, { kind: 'stream', streamId: 5, topic: 'b' }, skip)).toEqual({
      kind: 'dm',
      userIds: [9],
    });
    expect(nextUnread(unread, order, { kind: 'dm', userIds: [9] }, skip)).toEqual({
      kind: 'stream',
      streamId: 3,
      topic: 'z',
    });
    expect(nextUnread(new Map(), order, null, skip)).toBeNull();
  });
});
