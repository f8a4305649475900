import {
  currentDisplay,
  dayKey,
  dayLabel,
  fromZonedInput,
  fullTime,
  localeOf,
  messageTime,
  shortDateTime,
  zonedInput,
  zoneOf,
} from '../src/conversations/times';
import { DEFAULT_SETTINGS, settings } from '../src/store/personal';

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

describe('message times in the reader’s time zone and language', () => {
  // 23:30 UTC on 2 December 2026: already 3 December in Tokyo, still 2 December in New York.
  const late = Date.UTC(2026, 11, 2, 23, 30, 0) / 1000;
  const nowUtc = Date.UTC(2026, 11, 3, 1, 0, 0);
  const tokyo = { timeZone: 'Asia/Tokyo', locale: 'en-US' };
  const newYork = { timeZone: 'America/New_York', locale: 'en-US' };

  it('shows the clock of the chosen zone', () => {
    expect(messageTime(late, true, nowUtc, tokyo)).toBe('08:30');
    // In UTC it is 3 December now, the message was sent yesterday: its date shows.
    expect(messageTime(late, true, nowUtc, { timeZone: 'UTC', locale: 'en-US' })).toBe('Dec 2, 23:30');
    // In New York both are on 2 December, in the evening.
    expect(messageTime(late, true, nowUtc, newYork)).toBe('18:30');
    expect(messageTime(late, false, nowUtc, newYork)).toBe('6:30 PM');
  });

  it('takes the day of a moment, and of a date separator, in the zone', () => {
    expect(dayKey(late * 1000, tokyo)).toBe('2026-12-03');
    expect(dayKey(late * 1000, newYork)).toBe('2026-12-02');
    expect(dayLabel(late, nowUtc, tokyo)).toBe('Today');
    expect(dayLabel(late, nowUtc, newYork)).toBe('Today');
    expect(dayLabel(late - 86_400, nowUtc, tokyo)).toBe('Yesterday');
    // Across a month and a year, by the calendar.
    const newYear = Date.UTC(2027, 0, 1, 12);
    expect(dayLabel(Date.UTC(2026, 11, 31, 12) / 1000, newYear, { timeZone: 'UTC', locale: 'en-US' })).toBe(
      'Yesterday',
    );
    expect(dayLabel(Date.UTC(2026, 11, 30, 12) / 1000, newYear, { timeZone: 'UTC', locale: 'en-US' })).toBe(
      'Wednesday, December 30, 2026',
    );
  });

  it('names the zone in the tooltip when it is not the browser’s', () => {
    expect(fullTime(late, true, tokyo)).toMatch(/GMT\+9|JST/);
    expect(fullTime(late, true, { locale: 'en-US' })).not.toMatch(/GMT|UTC/);
  });

  it('writes dates in the chosen language', () => {
    const de = { timeZone: 'UTC', locale: localeOf('de') };
    expect(dayLabel(Date.UTC(2026, 10, 30, 12) / 1000, nowUtc, de)).toBe('Montag, 30. November');
    expect(fullTime(late, true, { timeZone: 'UTC', locale: localeOf('fr') })).toContain('décembre');
  });

  it("reads Zulip's language codes and zones, and leaves unknown ones to the browser", () => {
    expect(localeOf('en_GB')).toBe('en-GB');
    expect(localeOf('zh-hans')?.toLowerCase()).toBe('zh-hans');
    expect(localeOf('')).toBeUndefined();
    expect(localeOf('not a language!')).toBeUndefined();
    expect(zoneOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(zoneOf('')).toBeUndefined();
    expect(zoneOf('Mars/Olympus')).toBeUndefined();
  });

  it('follows the settings when no zone is given', () => {
    settings.value = { ...DEFAULT_SETTINGS, timezone: 'Asia/Tokyo', default_language: 'en' };
    try {
      expect(currentDisplay()).toEqual({ timeZone: 'Asia/Tokyo', locale: 'en' });
      expect(messageTime(late, true, nowUtc)).toBe('08:30');
      settings.value = { ...settings.value, timezone: 'America/New_York' };
      expect(messageTime(late, true, nowUtc)).toBe('18:30');
      settings.value = { ...settings.value, timezone: 'UTC' };
      expect(messageTime(late, true, nowUtc)).toBe('Dec 2, 23:30');
    } finally {
      settings.value = { ...DEFAULT_SETTINGS };
    }
  });
});

describe('times written in a zone ("Send at")', () => {
  const moment = Date.UTC(2026, 11, 2, 13, 42, 7);
  it('writes a moment as the wall clock of the zone, and reads it back', () => {
    expect(zonedInput(moment, 'Asia/Tokyo')).toBe('2026-12-02T22:42:07');
    expect(zonedInput(moment, 'America/New_York')).toBe('2026-12-02T08:42:07');
    expect(fromZonedInput('2026-12-02T22:42:07', 'Asia/Tokyo')).toBe(moment);
    expect(fromZonedInput('2026-12-02T08:42:07', 'America/New_York')).toBe(moment);
    expect(fromZonedInput('2026-12-02T22:42', 'Asia/Tokyo')).toBe(moment - 7000);
  });

  it('follows summer time, and takes the browser zone without one', () => {
    // 1 July: New York is 4 hours behind UTC, not 5.
    expect(fromZonedInput('2026-07-01T09:00:00', 'America/New_York')).toBe(Date.UTC(2026, 6, 1, 13, 0, 0));
    expect(fromZonedInput('2026-07-01T09:00:00')).toBe(new Date(2026, 6, 1, 9, 0, 0).getTime());
    expect(Number.isNaN(fromZonedInput('', 'Asia/Tokyo'))).toBe(true);
  });

  it('says a scheduled moment short, naming the zone when it is not the browser’s', () => {
    const text = shortDateTime(moment / 1000, true, moment, { timeZone: 'Asia/Tokyo', locale: 'en-US' });
    expect(text).toContain('22:42');
    expect(text).toContain('Dec 2');
    expect(text).toContain('GMT+9');
  });
});
