import { route } from '@confab/http';
import type { InvitationsDeps } from '../deps.js';
import { createMultiuseInvite, listInvites, revokeInvite, type InviteContext } from '../domain/invites.js';
import type { Caller } from '../domain/types.js';
import type { UserIdentity } from '@confab/identity';
import { emailInviteParams, multiuseInviteParams } from './invites.params.js';
import { inviteByEmail, resendEmailInvite, revokeEmailInvite } from '../domain/email-invites.js';

const callerOf = (identity: UserIdentity): Caller => ({
  userId: identity.userId,
  realmId: identity.realmId,
  role: identity.role,
  isBot: identity.isBot,
});

export function inviteRoutes(deps: InvitationsDeps) {
  const ctx: InviteContext = {
    repo: deps.repo,
    owners: deps.owners,
    defaultExpiryMinutes: deps.config.defaultExpiryMinutes,
    maxInvitesPerDay: deps.config.maxInvitesPerDay,
  };
  return [
    route({
      method: 'POST',
      path: '/invites/multiuse',
      auth: 'user',
      params: multiuseInviteParams,
      handler({ identity, params }) {
        return createMultiuseInvite(ctx, callerOf(identity), {
          expiresInMinutes: params.invite_expires_in_minutes,
          inviteAs: params.invite_as,
          streamIds: params.stream_ids ?? [],
          groupIds: params.group_ids ?? [],
          includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
          welcomeMessageCustomText: params.welcome_message_custom_text,
        });
      },
    }),
    route({
      method: 'POST',
      path: '/invites',
      auth: 'user',
      params: emailInviteParams,
      async handler({ identity, params, requestId }) {
        await inviteByEmail({ ...ctx, requestId }, callerOf(identity), {
          inviteeEmails: params.invitee_emails,
          expiresInMinutes: params.invite_expires_in_minutes,
          inviteAs: params.invite_as,
          streamIds: params.stream_ids,
          groupIds: params.group_ids ?? [],
          includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
          notifyReferrerOnJoin: params.notify_referrer_on_join,
          welcomeMessageCustomText: params.welcome_message_custom_text,
        });
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/invites/{invite_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await revokeEmailInvite({ ...ctx, requestId }, callerOf(identity), path.invite_id);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/invites/{invite_id:int}/resend',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await resendEmailInvite({ ...ctx, requestId }, callerOf(identity), path.invite_id);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/invites',
      auth: 'user',
      handler({ identity }) {
        return listInvites(ctx, callerOf(identity));
      },
    }),
    route({
      method: 'DELETE',
      path: '/invites/multiuse/{invite_id:int}',
      auth: 'user',
      async handler({ identity, path }) {
        await revokeInvite(ctx, callerOf(identity), path.invite_id);
        return {};
      },
    }),
  ];
}
