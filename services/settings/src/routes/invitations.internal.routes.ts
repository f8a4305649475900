import { parseValue, route, t } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { createInvitedUser } from '../domain/invited-users.js';
import { userRecord } from '../domain/users.js';

const newUserBody = t.object({
  realm_id: t.int(),
  email: t.string({ maxLength: 254 }),
  full_name: t.string({ maxLength: 1000 }),
  password: t.string({ maxLength: 1000 }),
  role: t.literal(100, 200, 300, 400, 600),
});

/** The invitations service creates the account of a person who signed up through an invitation link. */
export function invitationInternalRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'POST',
      path: '/invitations/users',
      auth: 'service',
      json: true,
      async handler({ body, requestId }) {
        const spec = parseValue(newUserBody, body.json, 'body');
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
      },
    }),
  ];
}
