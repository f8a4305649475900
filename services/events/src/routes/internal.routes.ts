import { eventProcessedRoute } from '@confab/http';
import type { EventsDeps } from '../deps.js';

/** Routes other Confab processes (and the test harness) call; never reachable through the gateway. */
export function internalRoutes(deps: EventsDeps) {
  return [eventProcessedRoute((eventId) => deps.store.isHandled(eventId))];
}
