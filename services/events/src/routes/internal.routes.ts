import { route } from '@confab/http';
import type { EventsDeps } from '../deps.js';

/** Routes other Confab processes (and the test harness) call; never reachable through the gateway. */
export function internalRoutes(deps: EventsDeps) {
  return [
    route({
      method: 'GET',
      path: '/events/processed/{event_id:str}',
      auth: 'service',
      async handler({ path }) {
        return { processed: await deps.store.isHandled(path.event_id) };
      },
    }),
  ];
}
