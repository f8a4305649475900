/**
 * Python's datetime formatting as Zulip's views use it: strftime in the C locale, of a UTC instant (Zulip's
 * timestamp_to_datetime gives aware UTC datetimes, whose %Z is "UTC") or of a naive one (%Z empty).
 */

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Python's `datetime.strftime(format)` of `date` read in UTC. `zone` is what %Z prints ("UTC" for Zulip's aware
 * datetimes, "" for naive ones) and %z its offset.
 */
export function strftime(date: Date, format: string, zone: { name: string; offset: string } = UTC): string {
  const weekday = (date.getUTCDay() + 6) % 7;
  const hour = date.getUTCHours();
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((date.getTime() - start) / 86_400_000) + 1;
  return format.replace(/%(.)/g, (whole, directive: string) => {
    switch (directive) {
      case 'a':
        return DAYS[weekday]!.slice(0, 3);
      case 'A':
        return DAYS[weekday]!;
      case 'b':
        return MONTHS[date.getUTCMonth()]!.slice(0, 3);
      case 'B':
        return MONTHS[date.getUTCMonth()]!;
      case 'd':
        return pad(date.getUTCDate());
      case 'm':
        return pad(date.getUTCMonth() + 1);
      case 'y':
        return pad(date.getUTCFullYear() % 100);
      case 'Y':
        return String(date.getUTCFullYear());
      case 'H':
        return pad(hour);
      case 'I':
        return pad(hour % 12 === 0 ? 12 : hour % 12);
      case 'p':
        return hour < 12 ? 'AM' : 'PM';
      case 'M':
        return pad(date.getUTCMinutes());
      case 'S':
        return pad(date.getUTCSeconds());
      case 'f':
        return pad(date.getUTCMilliseconds() * 1000, 6);
      case 'j':
        return pad(dayOfYear, 3);
      case 'Z':
        return zone.name;
      case 'z':
        return zone.offset;
      case '%':
        return '%';
      default:
        return whole;
    }
  });
}

/** Zulip's aware UTC datetimes: %Z is "UTC", %z "+0000". */
export const UTC = { name: 'UTC', offset: '+0000' };
/** A naive datetime: %Z and %z print nothing. */
export const NAIVE = { name: '', offset: '' };

/** Zulip's timestamp_to_datetime: a Unix timestamp in seconds as a UTC instant. */
export function fromTimestamp(seconds: number): Date {
  return new Date(seconds * 1000);
}
