import { internal } from '@confab/events';
import { internalRoute } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { createInvitedUser } from '../domain/invited-users.js';
import { userRecord } from '../domain/users.js';

/** The invitations service creates the account of a person who signed up through an invitation link. */
export function invitationInternalRoutes(deps: SettingsDeps) {
  return [
    internalRoute(internal.endpoints.createInvitedUser, async (spec, { requestId }) => {
      const { user, eventIds } = await createInvitedUser(
        {
          db: deps.db,
          externalUrl: deps.config.externalUrl,
          passwordHashCost: deps.config.passwordHashCost,
          passwordPolicy: deps.config.passwordPolicy,
          requestId,
        },
        {
          realmId: spec.realm_id,
          email: spec.email,
          fullName: spec.full_name,
          password: spec.password,
          role: spec.role,
        },
      );
      return { user: userRecord(user), event_ids: eventIds };
    }),
  ];
}
