import {
  ConfabError,
  organizationAdministratorRequired,
  organizationOwnerRequired,
  serviceUnavailable,
} from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_OWNER, type Role } from '@confab/identity';
import type { InviteRepository, Owners } from './ports.js';
import {
  canManage,
  checkInviteAs,
  expiryFrom,
  generateKey,
  inviteDict,
  inviteLink,
  noSuchInvitation,
  requireMemberOrAdmin,
  welcomeTextFor,
} from './rules.js';
import type { Caller } from './types.js';

export interface InviteContext {
  repo: InviteRepository;
  owners: Owners;
  defaultExpiryMinutes: number;
  /** Email invitations an organization may send in a day (Zulip's Realm.max_invites). */
  maxInvitesPerDay: number;
  now?: () => Date;
}

export interface MultiuseInviteInput {
  /** Undefined: the server's default; null: never. */
  expiresInMinutes: number | null | undefined;
  inviteAs: Role;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | undefined;
}

/** POST /invites/multiuse, with Zulip's checks in Zulip's order. */
export async function createMultiuseInvite(
  ctx: InviteContext,
  caller: Caller,
  input: MultiuseInviteInput,
): Promise<{ invite_link: string }> {
  requireMemberOrAdmin(caller);
  // The organization's create_multiuse_invite_group (the groups service resolves it).
  await ctx.owners.checkGroups(caller, []);
  checkInviteAs(caller, input.inviteAs);
  const streamIds = [...new Set(input.streamIds)];
  const groupIds = [...new Set(input.groupIds)];
  await ctx.owners.checkChannels(caller, streamIds);
  if (groupIds.length > 0) await ctx.owners.checkGroups(caller, groupIds);
  const realm = await ctx.owners.realm(caller.realmId);
  if (!realm) throw serviceUnavailable();
  const now = ctx.now?.() ?? new Date();
  const invite = await ctx.repo.create({
    key: generateKey(),
    realmId: caller.realmId,
    realmUrl: realm.url,
    referrerId: caller.userId,
    inviteAs: input.inviteAs,
    streamIds,
    groupIds,
    includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
    email: null,
    notifyReferrerOnJoin: true,
    welcomeMessageCustomText: welcomeTextFor(caller, input.welcomeMessageCustomText),
    createdAt: now,
    expiresAt: expiryFrom(
      now,
      input.expiresInMinutes === undefined ? ctx.defaultExpiryMinutes : input.expiresInMinutes,
    ),
  });
  return { invite_link: inviteLink(invite) };
}

/** GET /invites: unexpired, unrevoked links the caller may manage. */
export async function listInvites(ctx: InviteContext, caller: Caller): Promise<{ invites: Record<string, unknown>[] }> {
  requireMemberOrAdmin(caller);
  const now = ctx.now?.() ?? new Date();
  const admin = caller.role <= ROLE_ADMINISTRATOR;
  const invites = await ctx.repo.active(caller.realmId, now, admin ? undefined : caller.userId);
  return {
    invites: invites
      .filter((i) => caller.role === ROLE_OWNER || i.inviteAs !== ROLE_OWNER || i.referrerId === caller.userId)
      .map(inviteDict),
  };
}

/** DELETE /invites/multiuse/{invite_id}: Zulip's access_multiuse_invite_by_id, then revoke. */
export async function revokeInvite(ctx: InviteContext, caller: Caller, inviteId: number): Promise<void> {
  requireMemberOrAdmin(caller);
  const invite = await ctx.repo.byId(inviteId);
  if (!invite || invite.realmId !== caller.realmId || invite.email !== null) throw noSuchInvitation();
  if (!canManage(caller, invite)) {
    if (caller.role > ROLE_ADMINISTRATOR) {
      throw organizationAdministratorRequired();
    }
    throw organizationOwnerRequired();
  }
  if (invite.revokedAt) throw new ConfabError('Invitation has already been revoked');
  await ctx.repo.revoke(invite.id, ctx.now?.() ?? new Date());
}
