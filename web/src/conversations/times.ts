/**
 * How message times read: the time alone for today's messages, the date with it for older ones (the year too when it
 * is not this year's), the full date and time as the tooltip; and the day a date separator names. In the reader's
 * own time zone and locale, by their 24-hour setting.
 */

const cache = new Map<string, Intl.DateTimeFormat>();
function format(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(undefined, options)));
  return f;
}

const clock = (twentyFour: boolean): Intl.DateTimeFormatOptions => ({
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: twentyFour ? 'h23' : 'h12',
});

/** The local calendar day of a moment, as a comparable key. */
export const dayKey = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/** The time shown on a message: "10:42", or "Nov 29, 10:42" when not today, "Nov 29, 2025, 10:42" in another year. */
export function messageTime(seconds: number, twentyFour: boolean, now = Date.now()): string {
  const ms = seconds * 1000;
  if (dayKey(ms) === dayKey(now)) return format(clock(twentyFour)).format(ms);
  const sameYear = new Date(ms).getFullYear() === new Date(now).getFullYear();
  return format({
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    ...clock(twentyFour),
  }).format(ms);
}

/** The tooltip: "Wednesday, December 2, 2026 at 10:42:13 AM". */
export function fullTime(seconds: number, twentyFour: boolean): string {
  return format({
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...clock(twentyFour),
    second: '2-digit',
  }).format(seconds * 1000);
}

/** A date separator's text: "Today", "Yesterday", or the date ("Monday, November 30", with the year if not this one). */
export function dayLabel(seconds: number, now = Date.now()): string {
  const ms = seconds * 1000;
  const day = dayKey(ms);
  if (day === dayKey(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  if (day === dayKey(yesterday.getTime())) return 'Yesterday';
  const sameYear = new Date(ms).getFullYear() === new Date(now).getFullYear();
  return format({ weekday: 'long', month: 'long', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(
    ms,
  );
}
