import { internal } from '@confab/events';
import { internalRoute } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { inviteeRefusal } from '../domain/email-rules.js';
import { createInvitedUser } from '../domain/invited-users.js';
import { allowedDomains } from '../domain/realm-domains.js';
import { userRecord } from '../domain/users.js';

/**
 * What the invitations service needs of this one: the account of a person who signed up through an invitation, which
 * invited addresses have an account already or are refused by the organization's email rules, and the invitation
 * mails.
 */
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
    internalRoute(internal.endpoints.existingAccounts, async ({ realm_id, emails }) => {
      const accounts = [];
      for (const email of emails) {
        const user = await deps.db.store.users.byEmail(realm_id, email.toLowerCase());
        if (user) accounts.push({ email, deactivated: !user.isActive });
      }
      return { accounts };
    }),
    internalRoute(internal.endpoints.refusedInvitees, async ({ realm_id, emails }) => {
      const realm = await deps.db.store.realms.byId(realm_id);
      if (!realm) return { refused: [] };
      const domains = await allowedDomains(deps.db.store, realm.id);
      const refused = [];
      for (const email of emails) {
        const reason = inviteeRefusal(realm, email, domains);
        if (reason !== null) refused.push({ email, reason });
      }
      return { refused };
    }),
    // Email invitations are mailed through this service's mail transport (SMTP, or the development capture).
    internalRoute(internal.endpoints.sendMail, async (mail) => {
      if (!deps.mailer.enabled) return { sent: false };
      await deps.mailer.send(mail);
      return { sent: true };
    }),
  ];
}
