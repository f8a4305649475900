import { ConfabError, invalid, organizationAdministratorRequired, organizationOwnerRequired } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { ROLE_ADMINISTRATOR, ROLE_MODERATOR, ROLE_OWNER, type Role } from '@confab/identity';
import type { InviteContext } from './invites.js';
import { expiryFrom, generateKey, inviteLink, noSuchInvitation, requireMemberOrAdmin } from './rules.js';
import type { Caller, Invite, RealmInfo } from './types.js';

export interface EmailInviteInput {
  inviteeEmails: string;
  expiresInMinutes: number | null | undefined;
  inviteAs: Role;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | null | undefined;
}

/** Zulip's get_invitee_emails_set: separated by commas or newlines, `Name <address>` allowed. */
export function inviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    out.add((named ? named[1]! : part).trim());
  }
  return [...out].filter((e) => e !== '');
}

const VALID_EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** Zulip's InvitationError: code INVITATION_FAILED, with each refused address and why. */
function invitationError(
  msg: string,
  errors: [string, string, boolean][],
  sent: boolean,
  dailyLimitReached = false,
): ConfabError {
  return new ConfabError(msg, {
    code: 'INVITATION_FAILED',
    data: { errors, sent_invitations: sent, license_limit_reached: false, daily_limit_reached: dailyLimitReached },
  });
}

const DAY_MS = 86_400_000;

/** Zulip's check_invite_limit: no more than the organization's daily maximum of email invitations. */
const dailyLimitReached = () =>
  invitationError(
    'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
    [],
    false,
    true,
  );

function dailyLimit(ctx: InviteContext, realmId: number) {
  return { realmId, since: new Date((ctx.now?.() ?? new Date()).getTime() - DAY_MS), max: ctx.maxInvitesPerDay };
}

async function checkInviteLimit(ctx: InviteContext, realmId: number, count: number): Promise<void> {
  const limit = dailyLimit(ctx, realmId);
  if ((await ctx.repo.emailInvitesSince(realmId, limit.since)) + count > limit.max) throw dailyLimitReached();
}

/** Zulip's check_role_based_permissions. */
function checkRole(caller: Caller, inviteAs: Role): void {
  if (inviteAs === ROLE_OWNER && caller.role !== ROLE_OWNER) throw organizationOwnerRequired();
  const needsAdmin = inviteAs === ROLE_OWNER || inviteAs === ROLE_ADMINISTRATOR || inviteAs === ROLE_MODERATOR;
  if (needsAdmin && caller.role > ROLE_ADMINISTRATOR) throw organizationAdministratorRequired();
}

/** The invitation mail (Zulip's invitation email), its link on a line of its own. */
async function mail(ctx: InviteContext, invite: Invite, realm: RealmInfo) {
  const referrer = await ctx.owners.person(invite.referrerId);
  const who = referrer ? `${referrer.fullName} (${referrer.email})` : 'A member';
  const until = invite.expiresAt
    ? `The link expires at ${invite.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`
    : 'The link does not expire.';
  return {
    to: invite.email!,
    subject: `${referrer?.fullName ?? 'Someone'} invited you to join ${realm.name}`,
    text: `Hi there,\n\n${who} wants you to join them in ${realm.name}.\n\nCreate your account with this link:\n${inviteLink(invite)}\n\n${until}\n`,
  };
}

const changed = (caller: Caller, requestId: string | undefined) =>
  outboxRecord(
    contracts.invitesChanged,
    { realm_id: caller.realmId, referrer_id: caller.userId },
    { realmId: caller.realmId, requestId },
  );

/** POST /invites (Zulip's invite_users_backend and do_invite_users), its checks in Zulip's order. */
export async function inviteByEmail(
  ctx: InviteContext & { requestId?: string },
  caller: Caller,
  input: EmailInviteInput,
): Promise<void> {
  requireMemberOrAdmin(caller);
  const realm = await ctx.owners.realm(caller.realmId);
  if (!realm) throw invalid('Insufficient permission');
  if (!(await ctx.owners.holds(caller, realm.permissions.can_invite_users_group ?? 'role:members')))
    throw invalid('Insufficient permission');
  checkRole(caller, input.inviteAs);
  const emails = inviteeEmails(input.inviteeEmails);
  if (input.inviteeEmails === '' || emails.length === 0) throw invalid('You must specify at least one email address.');
  const streamIds = [...new Set(input.streamIds)];
  const groupIds = [...new Set(input.groupIds)];
  await ctx.owners.checkChannels(caller, streamIds);
  if (groupIds.length > 0) await ctx.owners.checkGroups(caller, groupIds);
  if (input.welcomeMessageCustomText != null && caller.role > ROLE_ADMINISTRATOR)
    throw organizationAdministratorRequired();
  // Zulip counts every address asked for, before checking them.
  await checkInviteLimit(ctx, caller.realmId, emails.length);

  // Zulip's validate_email_is_valid, address by address: well-formed, then the organization's email rules.
  const wellFormed = emails.filter((e) => VALID_EMAIL.test(e));
  const refused = new Map(
    (await ctx.owners.refusedInvitees(caller.realmId, wellFormed)).map((r) => [r.email, r.reason]),
  );
  const bad: [string, string, boolean][] = [];
  for (const email of emails) {
    const reason = VALID_EMAIL.test(email) ? refused.get(email) : 'Invalid address.';
    if (reason !== undefined) bad.push([email, reason, false]);
  }
  const existing = await ctx.owners.existingAccounts(
    caller.realmId,
    wellFormed.filter((e) => !refused.has(e)),
  );
  const skipped: [string, string, boolean][] = existing.map((a) => [
    a.email,
    a.deactivated ? 'Account has been deactivated.' : 'Already has an account.',
    a.deactivated,
  ]);
  if (bad.length > 0)
    throw invitationError(
      "Some emails did not validate, so we didn't send any invitations.",
      [...bad, ...skipped],
      false,
    );
  if (skipped.length === emails.length) throw invitationError("We weren't able to invite anyone.", skipped, false);

  const taken = new Set(existing.map((a) => a.email));
  const now = ctx.now?.() ?? new Date();
  const expiresAt = expiryFrom(
    now,
    input.expiresInMinutes === undefined ? ctx.defaultExpiryMinutes : input.expiresInMinutes,
  );
  const invites = await ctx.repo.createMany(
    emails
      .filter((e) => !taken.has(e))
      .map((email) => ({
        key: generateKey(),
        realmId: caller.realmId,
        realmUrl: realm.url,
        referrerId: caller.userId,
        inviteAs: input.inviteAs,
        streamIds,
        groupIds,
        includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
        welcomeMessageCustomText: input.welcomeMessageCustomText ?? null,
        email,
        notifyReferrerOnJoin: input.notifyReferrerOnJoin,
        createdAt: now,
        expiresAt,
      })),
    [changed(caller, ctx.requestId)],
    dailyLimit(ctx, caller.realmId),
  );
  if (!invites) throw dailyLimitReached();
  for (const invite of invites) await ctx.owners.sendMail(await mail(ctx, invite, realm));
  if (skipped.length > 0)
    throw invitationError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
}

/** Zulip's access_invite_by_id: an email invitation of the organization the caller may manage. */
async function accessEmailInvite(ctx: InviteContext, caller: Caller, id: number): Promise<Invite> {
  requireMemberOrAdmin(caller);
  const invite = await ctx.repo.byId(id);
  if (!invite || invite.email === null || invite.realmId !== caller.realmId || invite.revokedAt || invite.usedAt)
    throw noSuchInvitation();
  if (invite.referrerId !== caller.userId) {
    if (invite.inviteAs === ROLE_OWNER && caller.role !== ROLE_OWNER) throw organizationOwnerRequired();
    if (caller.role > ROLE_ADMINISTRATOR) throw organizationAdministratorRequired();
  }
  return invite;
}

/** DELETE /invites/{invite_id}. */
export async function revokeEmailInvite(ctx: InviteContext & { requestId?: string }, caller: Caller, id: number) {
  const invite = await accessEmailInvite(ctx, caller, id);
  const event = outboxRecord(
    contracts.invitesChanged,
    { realm_id: caller.realmId, referrer_id: invite.referrerId },
    { realmId: caller.realmId, requestId: ctx.requestId },
  );
  await ctx.repo.revoke(invite.id, ctx.now?.() ?? new Date(), [event]);
}

/** POST /invites/{invite_id}/resend: the same invitation mailed again. */
export async function resendEmailInvite(ctx: InviteContext & { requestId?: string }, caller: Caller, id: number) {
  const invite = await accessEmailInvite(ctx, caller, id);
  const realm = await ctx.owners.realm(caller.realmId);
  if (!realm) throw noSuchInvitation();
  // Zulip's do_send_user_invite_email: a resend is checked against the daily limit and counted in it.
  const event = outboxRecord(
    contracts.invitesChanged,
    { realm_id: caller.realmId, referrer_id: invite.referrerId },
    { realmId: caller.realmId, requestId: ctx.requestId },
  );
  const { since, max } = dailyLimit(ctx, caller.realmId);
  if (!(await ctx.repo.recordResend(invite, [event], { since, max }))) throw dailyLimitReached();
  await ctx.owners.sendMail(await mail(ctx, invite, realm));
}
