import { isEventProcessed } from '@confab/events';
import { eventProcessedRoute, initialStateRoute, p, route, t } from '@confab/http';
import { initialState } from '../domain/initial-state.js';
import type { MessagingDeps } from '../deps.js';

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: MessagingDeps) {
  const routes = [
    eventProcessedRoute((eventId) => isEventProcessed(deps.store.db, eventId)),
    initialStateRoute(
      {
        fetch_event_types: p.json(t.list(t.string())).optional(),
        include_subscribers: p.json(t.union(t.bool(), t.literal('partial'))).default(false),
      },
      (userId, params) =>
        initialState(deps.domain, userId, {
          fetchEventTypes: params.fetch_event_types,
          includeSubscribers: params.include_subscribers !== false,
        }),
    ),
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
