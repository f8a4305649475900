import { internal } from '@confab/events';
import { eventProcessedRoute, initialStateRoute, internalRoute, p, route, t } from '@confab/http';
import type { GroupsDeps } from '../deps.js';
import { initialState } from '../domain/initial-state.js';
import { activeMembersOf, evaluateSetting, groupsAfter, userInGroup } from '../domain/internal.js';

/** The client options of the events service's initial-state protocol that matter here. */
const clientCapabilities = t.object({ include_deactivated_groups: t.optional(t.bool(), false) }, { extra: 'ignore' });

/** Routes other Confab processes call; never reachable through the gateway. */
export function internalRoutes(deps: GroupsDeps) {
  const { db } = deps;
  return [
    eventProcessedRoute((eventId) => db.isEventProcessed(eventId)),
    // `realm_user_groups` of /register.
    initialStateRoute(
      {
        fetch_event_types: p.json(t.nullable(t.list(t.string()))).default(null),
        client_capabilities: p.json(clientCapabilities).default({ include_deactivated_groups: false }),
      },
      (userId, params) =>
        initialState(db, userId, {
          fetchEventTypes: params.fetch_event_types,
          includeDeactivatedGroups: params.client_capabilities.include_deactivated_groups,
        }),
    ),
    route({
      method: 'GET',
      path: '/groups/{group_id:int}/members/{user_id:int}',
      auth: 'service',
      params: { direct_member_only: p.bool().default(false) },
      async handler({ path, params }) {
        return { is_member: await userInGroup(db, path.group_id, path.user_id, params.direct_member_only) };
      },
    }),
    route({
      method: 'GET',
      path: '/groups/members',
      auth: 'service',
      params: { realm_id: p.int(), group_ids: p.intList() },
      async handler({ params }) {
        return { user_ids: await activeMembersOf(db, params.realm_id, params.group_ids) };
      },
    }),
    internalRoute(internal.endpoints.evaluateGroupSetting, async ({ realm_id, user_id, value }) => ({
      is_member: await evaluateSetting(db, realm_id, user_id, value),
    })),
    route({
      method: 'GET',
      path: '/groups',
      auth: 'service',
      params: { after_id: p.int().default(0) },
      async handler({ params }) {
        return { groups: await groupsAfter(db, params.after_id, 200) };
      },
    }),
  ];
}
