import { notFound } from '@confab/errors';
import { p, route } from '@confab/http';
import type { InvitationsDeps } from '../deps.js';

/** Routes other Confab processes (and, with CONFAB_DEV_ENDPOINTS, tests) call; never reachable through the gateway. */
export function internalRoutes(deps: InvitationsDeps) {
  if (!deps.config.devEndpoints) return [];
  return [
    route({
      // Ages a link so tests can see an expired one without waiting (minutes from now; negative: in the past).
      method: 'POST',
      path: '/dev/invites/{invite_id:int}/expiry',
      auth: 'service',
      params: { minutes_from_now: p.int() },
      async handler({ path, params }) {
        const at = new Date(Date.now() + params.minutes_from_now * 60_000);
        if (!(await deps.repo.setExpiry(path.invite_id, at))) throw notFound('No such invitation');
        return {};
      },
    }),
  ];
}
