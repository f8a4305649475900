import { around, holds, moved, rangeOf, settled, STEP, WINDOW } from '../src/conversations/render-window';

// Loaded messages with ids 10, 20, 30 … (ids grow, with gaps, as a narrow's do).
const loaded = (n: number, firstId = 10) => Array.from({ length: n }, (_, i) => ({ id: firstId + i * 10 }));

describe('the render window of a message list', () => {
  it('holds every message of a short list, following the newest', () => {
    const ids = loaded(40);
    const span = around(ids, null);
    expect(span).toEqual({ from: 10, to: null });
    expect(rangeOf(ids, span)).toEqual({ start: 0, end: 40 });
  });

  it('holds the newest WINDOW messages of a long one', () => {
    const ids = loaded(5000);
    const range = rangeOf(ids, around(ids, null))!;
    expect(range).toEqual({ start: 5000 - WINDOW, end: 5000 });
  });

  it('puts a wanted message a quarter into the window, inside the list', () => {
    const ids = loaded(5000);
    const range = rangeOf(ids, around(ids, 1000))!;
    expect(range.start).toBe(1000 - Math.floor(WINDOW / 4));
    expect(range.end - range.start).toBe(WINDOW);
    expect(holds(ids, range, ids[1000].id)).toBe(true);
    expect(rangeOf(ids, around(ids, 3))!.start).toBe(0);
    expect(rangeOf(ids, around(ids, 4999))).toEqual({ start: 5000 - WINDOW, end: 5000 });
  });

  it('moves a step towards either end, never longer than WINDOW', () => {
    const ids = loaded(5000);
    const range = rangeOf(ids, around(ids, 1000))!;
    const up = rangeOf(ids, moved(ids, range, 'up'))!;
    expect(up).toEqual({ start: range.start - STEP, end: range.start - STEP + WINDOW });
    const down = rangeOf(ids, moved(ids, range, 'down'))!;
    expect(down).toEqual({ start: range.start + STEP, end: range.end + STEP });
    // At the newest, the window follows new messages again.
    const last = rangeOf(ids, around(ids, 4990))!;
    expect(moved(ids, { start: last.start - 10, end: 4995 }, 'down').to).toBeNull();
  });

  it('takes in older messages loaded at its top, giving up its far end', () => {
    const before = loaded(200, 510);
    const span = around(before, null);
    const after = [...loaded(50, 10), ...before];
    const next = settled(after, span, before[0].id);
    expect(rangeOf(after, next)).toEqual({ start: 0, end: WINDOW });
    // A window that did not begin at the oldest stays where it was.
    const inside = { from: before[10].id, to: null };
    expect(settled(after, inside, before[0].id)).toEqual(inside);
  });

  it('drops its oldest beyond WINDOW while it follows the newest', () => {
    const ids = loaded(WINDOW + 5);
    const next = settled(ids, { from: ids[0].id, to: null }, ids[0].id);
    expect(rangeOf(ids, next)).toEqual({ start: 5, end: WINDOW + 5 });
  });

  it('survives the deletion of its first message', () => {
    const ids = loaded(100);
    const span = { from: ids[20].id, to: ids[80].id };
    const without = ids.filter((m) => m.id !== span.from);
    expect(rangeOf(without, span)).toEqual({ start: 20, end: 80 });
  });
});
