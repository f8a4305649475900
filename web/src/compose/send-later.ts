/**
 * Send later's choices, as Zulip's schedule menu offers them: a quick "tomorrow morning", or a time one chooses. The
 * times are wall-clock times in the reader's zone (their setting, else the browser's), as "Send at" reads them.
 */
import { dayKey, fromZonedInput, zonedInput } from '../conversations/times';

/** The next day's date after a day key ("2026-12-03" after "2026-12-02"), by the calendar. */
function dayAfter(key: string): string {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** Tomorrow at `hour`:00 in the zone (undefined: the browser's), as a moment in ms. */
export function tomorrowAt(now: number, hour: number, zone?: string): number {
  const tomorrow = dayAfter(dayKey(now, { timeZone: zone }));
  return fromZonedInput(`${tomorrow}T${String(hour).padStart(2, '0')}:00:00`, zone);
}

/** What the time field starts at when opened: an hour from now, to the minute, in the zone. */
export function suggestedTime(now: number, zone?: string): string {
  return zonedInput(Math.ceil((now + 3_600_000) / 60_000) * 60_000, zone).slice(0, 16);
}
