import { internal } from '@confab/events';
import { internalRoute } from '@confab/http';
import type { GroupsDeps } from '../deps.js';
import { checkInvitation, joinInvitedGroups } from '../domain/invitations.js';

/** The invitations service's questions and its one change (services/invitations/README.md). */
export function invitationInternalRoutes(deps: GroupsDeps) {
  return [
    internalRoute(internal.endpoints.checkInvitationGroups, async (input) => {
      await checkInvitation(
        deps.db,
        { userId: input.user_id, realmId: input.realm_id, role: input.role, isBot: input.is_bot },
        input.group_ids,
      );
      return {};
    }),
    internalRoute(internal.endpoints.joinInvitationGroups, async (input, { requestId }) => ({
      added_group_ids: await joinInvitedGroups(deps.db, input.realm_id, input.user_id, input.group_ids, requestId),
    })),
  ];
}
