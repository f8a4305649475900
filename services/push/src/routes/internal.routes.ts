import { p, route } from '@confab/http';
import type { PushDeps } from '../deps.js';
import { pushDevicesMap } from '../domain/devices.js';

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: PushDeps) {
  return [
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
