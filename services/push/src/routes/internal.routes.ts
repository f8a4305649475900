import { initialStateRoute, p, route, t } from '@confab/http';
import type { PushDeps } from '../deps.js';
import { devicesMap } from '../domain/client-devices.js';
import { pushDevicesMap } from '../domain/devices.js';

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: PushDeps) {
  return [
    // Zulip's `push_devices` of /register.
    initialStateRoute(
      { fetch_event_types: p.json(t.nullable(t.list(t.string()))).default(null) },
      async (userId, params) => {
        const wants = (type: string) => params.fetch_event_types === null || params.fetch_event_types.includes(type);
        return {
          ...(wants('push_device') ? { push_devices: pushDevicesMap(await deps.repo.devicesOfUser(userId)) } : {}),
          // Zulip's `devices` (feature level 468): the user's client devices and their push registration.
          ...(wants('device') ? { devices: devicesMap(await deps.repo.clientDevicesOf(userId)) } : {}),
        };
      },
    ),
    route({
      method: 'GET',
      path: '/push_devices',
      auth: 'service',
      params: { user_id: p.int() },
      async handler({ params }) {
        // Zulip's `push_devices` of POST /register, for the events service's initial state.
        return { push_devices: pushDevicesMap(await deps.repo.devicesOfUser(params.user_id)) };
      },
    }),
  ];
}
