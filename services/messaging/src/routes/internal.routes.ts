import { isEventProcessed } from '@confab/events';
import { p, route } from '@confab/http';
import type { MessagingDeps } from '../deps.js';

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: MessagingDeps) {
  const routes = [
    route({
      method: 'GET',
      path: '/events/processed/{event_id:str}',
      auth: 'service',
      async handler({ path }) {
        return { processed: await isEventProcessed(deps.domain.store.db, path.event_id) };
      },
    }),
  ];
  if (deps.config.devEndpoints) {
    routes.push(
      route({
        method: 'POST',
        path: '/dev/attachments/age',
        auth: 'service',
        params: { owner_id: p.int(), days: p.int({ min: 1 }) },
        async handler({ params }) {
          await deps.domain.attachments.ageAll(params.owner_id, { days: params.days });
          return {};
        },
      }),
    );
  }
  return routes;
}
