import type { Json, WebhookMessage } from '../framework.js';
import { setupMessage } from '../toolkit/headers.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { str } from '../toolkit/wild.js';

/**
 * What Radarr, Sonarr and Lidarr (the *arr family, one webhook format) share: the event type every payload names,
 * the "Test" event's setup message, and the Download event's upgrade flag.
 */

/**
 * The message of an *arr event: `body` (which throws Zulip's unsupported-event error for what it does not know)
 * and then `topic`, in Zulip's order; the event type is what the event filters match.
 */
export function arrMessage(
  app: 'Radarr' | 'Sonarr' | 'Lidarr',
  payload: Json,
  body: (eventType: string) => string,
  topic: (eventType: string) => string,
): WebhookMessage {
  const eventType = str(payload.eventType);
  const content = eventType === 'Test' ? setupMessage(app) : body(eventType);
  return { topic: eventType === 'Test' ? `${app} - Test` : topic(eventType), content, event: eventType };
}

/** A Download event says whether it was an upgrade; without `isUpgrade` it is not one Zulip knows. */
export function isDownload(eventType: string, payload: Json): boolean {
  return eventType === 'Download' && typeof payload === 'object' && payload !== null && 'isUpgrade' in payload;
}

/** The upgrade flag: Radarr's is read for its truth, Sonarr's and Lidarr's must be a boolean. */
export function isUpgrade(payload: Json, strict: boolean): boolean {
  if (!strict) return pyTruthy(payload.isUpgrade);
  if (typeof payload.isUpgrade !== 'boolean') throw new TypeError('isUpgrade is not a boolean');
  return payload.isUpgrade;
}
