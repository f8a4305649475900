import { parseValue, route, t } from '@confab/http';
import type { GroupsDeps } from '../deps.js';
import { checkInvitation, joinInvitedGroups } from '../domain/invitations.js';

const role = t.literal(100, 200, 300, 400, 600);
const checkBody = t.object({
  realm_id: t.int(),
  user_id: t.int(),
  role,
  is_bot: t.bool(),
  group_ids: t.list(t.int()),
});
const joinBody = t.object({ realm_id: t.int(), user_id: t.int(), group_ids: t.list(t.int()) });

/** The invitations service's questions and its one change (services/invitations/README.md). */
export function invitationInternalRoutes(deps: GroupsDeps) {
  return [
    route({
      method: 'POST',
      path: '/invitations/check',
      auth: 'service',
      json: true,
      async handler({ body }) {
        const input = parseValue(checkBody, body.json, 'body');
        await checkInvitation(
          deps.db,
          { userId: input.user_id, realmId: input.realm_id, role: input.role, isBot: input.is_bot },
          input.group_ids,
        );
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/invitations/join',
      auth: 'service',
      json: true,
      async handler({ body, requestId }) {
        const input = parseValue(joinBody, body.json, 'body');
        const added = await joinInvitedGroups(deps.db, input.realm_id, input.user_id, input.group_ids, requestId);
        return { added_group_ids: added };
      },
    }),
  ];
}
