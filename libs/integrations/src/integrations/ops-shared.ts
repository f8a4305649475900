import { invalid } from '@confab/errors';
import type { Json, WebhookRequest } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';

/**
 * What the monitoring, CI and operations integrations share: a form field read as JSON (Travis, Papertrail,
 * Librato) and C's `%c` rendering of a provider's time (Raygun, Insping).
 */

/**
 * Zulip's typed_endpoint `Json[...]` parameter (Travis's form field `payload`): absent, "Missing 'payload'
 * argument"; not JSON, "payload is not valid JSON".
 */
export function jsonParam(request: WebhookRequest, name: string): Json {
  const raw = requiredParam(request, name);
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid(`${name} is not valid JSON`);
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Python's time.strftime("%c", time.strptime(text, format)) in the C locale, for the formats Raygun and Insping
 * send ("2017-12-29T17:23:46.457990+00:00" as "Fri Dec 29 17:23:46 2017", the day padded with a space): the
 * wall-clock fields as written, whatever zone they are in. `pattern` captures year, month, day, hour, minute and
 * second; text it does not match is not the provider's.
 */
export function cTime(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match) throw new TypeError(`a time the provider does not send: ${text}`);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 61) {
    throw new TypeError(`not a time: ${text}`);
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${DAYS[date.getUTCDay()]} ${MONTHS[month - 1]} ${String(day).padStart(2, ' ')} ` +
    `${pad(hour)}:${pad(minute)}:${pad(second)} ${year}`
  );
}
