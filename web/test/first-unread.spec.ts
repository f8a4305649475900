import { firstUnread, markerFor } from '../src/conversations/first-unread';

const list = [{ id: 3 }, { id: 5 }, { id: 8 }, { id: 9 }];

describe('the "New messages" divider', () => {
  it('goes above the first unread message of the list, or nowhere', () => {
    expect(firstUnread(list, new Set([8, 9]))).toBe(8);
    expect(firstUnread(list, new Set([9, 5]))).toBe(5);
    expect(firstUnread(list, new Set([4, 100]))).toBeNull();
    expect(firstUnread([], new Set([1]))).toBeNull();
  });

  it('is decided when the view’s messages come, and stays while they are read', () => {
    expect(markerFor(null, 'a', false, [], new Set())).toBeNull();
    const opened = markerFor(null, 'a', true, list, new Set([5, 8, 9]));
    expect(opened).toEqual({ view: 'a', id: 5 });
    // Read as the reader reads: the divider stays above the same message.
    expect(markerFor(opened, 'a', true, list, new Set())).toEqual({ view: 'a', id: 5 });
    // Another view: decided again, for that view.
    expect(markerFor(opened, 'b', false, list, new Set([9]))).toBeNull();
    expect(markerFor(opened, 'b', true, list, new Set([9]))).toEqual({ view: 'b', id: 9 });
  });

  it('is none in a view opened with everything read, even when messages come unread later', () => {
    const opened = markerFor(null, 'a', true, list, new Set());
    expect(opened).toEqual({ view: 'a', id: null });
    expect(markerFor(opened, 'a', true, [...list, { id: 12 }], new Set([12]))).toEqual({ view: 'a', id: null });
  });
});
