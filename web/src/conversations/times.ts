/**
 * How message times read: the time alone for today's messages, the date with it for older ones (the year too when it
 * is not this year's), the full date and time as the tooltip; and the day a date separator names. In the reader's
 * time zone (their `timezone` setting, else the browser's) and language (`default_language`), by their 24-hour
 * setting. Each function takes the zone and language explicitly as its last argument; without it, the settings'.
 */
import { settings } from '../store/personal';

/** Where and how to read a moment: an IANA zone (undefined: the browser's) and a BCP 47 locale (the browser's). */
export interface TimeDisplay {
  timeZone?: string;
  locale?: string;
}

/** Zulip's language codes ("en_GB", "zh-hans", "pt-br") as BCP 47 tags Intl knows; undefined when it knows none. */
export function localeOf(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const tag = language.replace(/_/g, '-');
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag])[0];
  } catch {
    return undefined;
  }
}

/** A zone Intl knows, else undefined (the browser's). */
export function zoneOf(timezone: string | undefined): string | undefined {
  if (!timezone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return undefined;
  }
}

let display: { timezone?: string; language?: string; where: TimeDisplay } | null = null;
/** The reader's display, from their settings (reading them makes a component re-render when they change). Kept
 * while the settings stay: checking a zone and a language builds an Intl object each, and a message list asks for
 * the display of every time it shows (issue 45's scroll budget). */
export function currentDisplay(): TimeDisplay {
  const s = settings.value;
  if (display?.timezone !== s.timezone || display?.language !== s.default_language || !display)
    display = {
      timezone: s.timezone,
      language: s.default_language,
      where: { timeZone: zoneOf(s.timezone), locale: localeOf(s.default_language) },
    };
  return display.where;
}

let ownZone: string | undefined;
/** The browser's own time zone (read once: every message's tooltip asks for it). */
export const browserZone = (): string => (ownZone ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);

const cache = new Map<string, Intl.DateTimeFormat>();
function format(options: Intl.DateTimeFormatOptions, where: TimeDisplay): Intl.DateTimeFormat {
  const key = JSON.stringify([where.locale, where.timeZone, options]);
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(where.locale, { ...options, timeZone: where.timeZone })));
  return f;
}

const clock = (twentyFour: boolean): Intl.DateTimeFormatOptions => ({
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: twentyFour ? 'h23' : 'h12',
});

/** Day keys already worked out, per zone and moment (a message list asks for two per message at each render). */
const days = new Map<string, string>();

/** The calendar day of a moment in the zone, as "2026-12-02". */
export function dayKey(ms: number, where: TimeDisplay = currentDisplay()): string {
  const key = `${where.timeZone ?? ''} ${ms}`;
  const known = days.get(key);
  if (known !== undefined) return known;
  const parts: Record<string, string> = {};
  for (const p of format(
    { year: 'numeric', month: '2-digit', day: '2-digit' },
    { locale: 'en-US', timeZone: where.timeZone },
  ).formatToParts(ms))
    parts[p.type] = p.value;
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  if (days.size >= 20_000) days.clear();
  days.set(key, day);
  return day;
}

/** The day before a day key ("2026-12-01" for "2026-12-02"), by the calendar. */
function dayBefore(key: string): string {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

const yearOf = (key: string) => key.slice(0, 4);

/** The time shown on a message: "10:42", or "Nov 29, 10:42" when not today, "Nov 29, 2025, 10:42" in another year. */
export function messageTime(
  seconds: number,
  twentyFour: boolean,
  now = Date.now(),
  where: TimeDisplay = currentDisplay(),
): string {
  const ms = seconds * 1000;
  const day = dayKey(ms, where);
  const today = dayKey(now, where);
  if (day === today) return format(clock(twentyFour), where).format(ms);
  return format(
    {
      month: 'short',
      day: 'numeric',
      ...(yearOf(day) === yearOf(today) ? {} : { year: 'numeric' }),
      ...clock(twentyFour),
    },
    where,
  ).format(ms);
}

/** The tooltip: "Wednesday, December 2, 2026 at 10:42:13 AM" (with the zone's name when it is not the browser's). */
export function fullTime(seconds: number, twentyFour: boolean, where: TimeDisplay = currentDisplay()): string {
  return format(
    {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      ...clock(twentyFour),
      second: '2-digit',
      ...(where.timeZone && where.timeZone !== browserZone() ? { timeZoneName: 'short' } : {}),
    },
    where,
  ).format(seconds * 1000);
}

/** A date separator's text: "Today", "Yesterday", or the date ("Monday, November 30", with the year if not this one). */
export function dayLabel(seconds: number, now = Date.now(), where: TimeDisplay = currentDisplay()): string {
  const ms = seconds * 1000;
  const day = dayKey(ms, where);
  const today = dayKey(now, where);
  if (day === today) return 'Today';
  if (day === dayBefore(today)) return 'Yesterday';
  return format(
    { weekday: 'long', month: 'long', day: 'numeric', ...(yearOf(day) === yearOf(today) ? {} : { year: 'numeric' }) },
    where,
  ).format(ms);
}

/** A moment's wall-clock time in a zone (undefined: the browser's), as an `<input type="datetime-local">` holds it:
 * "2026-12-02T10:42:07". */
export function zonedInput(ms: number, zone?: string): string {
  const parts: Record<string, string> = {};
  const f = format(
    {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    },
    { locale: 'en-US', timeZone: zone },
  );
  for (const p of f.formatToParts(ms)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

/** The moment (ms) a datetime-local value names as a wall-clock time in a zone (undefined: the browser's); NaN if the
 * value is not one. A time that a change of clocks skips is read with the offset before the change. */
export function fromZonedInput(value: string, zone?: string): number {
  const m = INPUT.exec(value);
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  // The zone's offset at a moment: its wall clock then, read as UTC, less the moment.
  const offset = (ms: number) => Date.parse(`${zonedInput(ms, zone)}Z`) - Math.floor(ms / 1000) * 1000;
  const first = wall - offset(wall);
  return wall - offset(first);
}

/** A scheduled moment, short: "Dec 2, 10:42 PM" (the year if not this one, the zone's name if not the browser's). */
export function shortDateTime(
  seconds: number,
  twentyFour: boolean,
  now = Date.now(),
  where: TimeDisplay = currentDisplay(),
): string {
  const ms = seconds * 1000;
  return format(
    {
      month: 'short',
      day: 'numeric',
      ...(yearOf(dayKey(ms, where)) === yearOf(dayKey(now, where)) ? {} : { year: 'numeric' }),
      ...clock(twentyFour),
      ...(where.timeZone && where.timeZone !== browserZone() ? { timeZoneName: 'short' } : {}),
    },
    where,
  ).format(ms);
}
