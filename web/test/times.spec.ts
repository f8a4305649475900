import { dayLabel, fullTime, messageTime } from '../src/conversations/times';

// Noon on 2 December 2026, local time (the tests read local days, as the page does).
const now = new Date(2026, 11, 2, 12, 0, 0).getTime();
const at = (y: number, m: number, d: number, h = 9, min = 5) => new Date(y, m, d, h, min, 7).getTime() / 1000;
const local = (seconds: number, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(undefined, options).format(seconds * 1000);

describe('message times', () => {
  it('shows the time alone today, the date with it on other days, the year in other years', () => {
    const today = at(2026, 11, 2);
    const clock = local(today, { hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
    expect(messageTime(today, true, now)).toBe(clock);
    const earlier = at(2026, 10, 29);
    expect(messageTime(earlier, true, now)).toContain(local(earlier, { month: 'short' }));
    expect(messageTime(earlier, true, now)).not.toContain('2026');
    const lastYear = at(2025, 10, 29);
    expect(messageTime(lastYear, true, now)).toContain('2025');
  });

  it('follows the 24-hour setting', () => {
    const evening = at(2026, 11, 2, 21, 30);
    expect(messageTime(evening, true, now)).toContain('21');
    expect(messageTime(evening, false, now)).toContain('9');
    expect(messageTime(evening, false, now)).not.toContain('21');
  });

  it('gives the full date and time, to the second, as the tooltip', () => {
    const t = at(2026, 11, 2, 9, 5);
    const full = fullTime(t, true);
    for (const part of [
      local(t, { weekday: 'long' }),
      local(t, { month: 'long' }),
      local(t, { year: 'numeric' }),
      local(t, { second: '2-digit' }),
    ])
      expect(full).toContain(part);
  });

  it('names the day of a date separator: Today, Yesterday, else the date', () => {
    expect(dayLabel(at(2026, 11, 2), now)).toBe('Today');
    expect(dayLabel(at(2026, 11, 1, 23, 59), now)).toBe('Yesterday');
    const older = at(2026, 10, 30);
    expect(dayLabel(older, now)).toBe(local(older, { weekday: 'long', month: 'long', day: 'numeric' }));
    expect(dayLabel(at(2025, 11, 31), now)).toContain('2025');
  });
});
