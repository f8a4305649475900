import { isConfabError } from '@confab/errors';
import type { Logger } from '@confab/logging';
import type { InviteRepository, Owners } from './ports.js';
import { isWellFormedKey, linkState, welcomeMessage } from './rules.js';
import type { Invite, RealmInfo } from './types.js';

export interface JoinContext {
  repo: InviteRepository;
  owners: Owners;
  defaultWelcomeText: string;
  logger: Logger;
  now?: () => Date;
}

export type LinkProblem = 'not_found' | 'expired' | 'revoked' | 'used' | 'deactivated';

export interface OpenLink {
  invite: Invite;
  realm: RealmInfo;
}

/** The link behind a key, or why it cannot be used. */
export async function openLink(ctx: JoinContext, key: string): Promise<OpenLink | LinkProblem> {
  if (!isWellFormedKey(key)) return 'not_found';
  const invite = await ctx.repo.byKey(key);
  if (!invite) return 'not_found';
  if (invite.usedAt) return 'used';
  const state = linkState(invite, ctx.now?.() ?? new Date());
  if (state !== 'active') return state;
  const realm = await ctx.owners.realm(invite.realmId);
  if (!realm) return 'not_found';
  if (realm.deactivated) return 'deactivated';
  return { invite, realm };
}

export interface SignUpForm {
  fullName: string;
  email: string;
  password: string;
}

export type SignUpOutcome =
  | { kind: 'link'; problem: LinkProblem }
  | { kind: 'refused'; message: string; link: OpenLink }
  | { kind: 'already'; message: string; link: OpenLink }
  | { kind: 'created'; email: string; link: OpenLink };

/**
 * Creates the account a person asked for on the link's page, then subscribes it to the link's channels, adds it to
 * the link's groups and sends the welcome message. One sign-up per email address and organization: a repeated or
 * concurrent submission is told the account exists (or is being created) instead of making a second one.
 */
export async function signUp(ctx: JoinContext, key: string, form: SignUpForm): Promise<SignUpOutcome> {
  const link = await openLink(ctx, key);
  if (typeof link === 'string') return { kind: 'link', problem: link };
  const { invite } = link;
  const email = form.email.trim();
  if (form.fullName.trim() === '') return { kind: 'refused', message: 'Please enter your name.', link };
  if (email === '') return { kind: 'refused', message: 'Please enter your email address.', link };
  if (form.password === '') return { kind: 'refused', message: 'Please choose a password.', link };
  const emailKey = email.toLowerCase();
  // An email invitation is for the address it was sent to.
  if (invite.email !== null && invite.email.toLowerCase() !== emailKey)
    return { kind: 'refused', message: `This invitation is for ${invite.email}.`, link };

  const accepted = await accept(ctx, invite, email, form.fullName, form.password);
  if (accepted.kind === 'created') return { kind: 'created', email, link };
  if (accepted.kind === 'refused') return { kind: 'refused', message: accepted.message, link };
  const message = accepted.completed
    ? `An account for ${email} has already been created. Log in with that email address and your password.`
    : `An account for ${email} is being created. Wait a moment, then log in.`;
  return { kind: 'already', message, link };
}

type Accepted =
  { kind: 'created'; userId: number } | { kind: 'refused'; message: string } | { kind: 'already'; completed: boolean };

/**
 * The one way an invitation is accepted, whether from the link's sign-up form or by a first sign-in with the
 * company's identity (password null): the address is claimed for one sign-up, the account made with the
 * invitation's role, an email invitation used up, then its channels, groups and welcome message.
 */
async function accept(
  ctx: JoinContext,
  invite: Invite,
  email: string,
  fullName: string,
  password: string | null,
): Promise<Accepted> {
  const signup = await ctx.repo.claimSignup(invite, email.toLowerCase());
  if (!signup) {
    const existing = await ctx.repo.signupFor(invite.realmId, email.toLowerCase());
    return { kind: 'already', completed: Boolean(existing?.completedAt) };
  }
  let userId: number;
  try {
    ({ userId } = await ctx.owners.createUser({
      realmId: invite.realmId,
      email,
      fullName,
      password,
      role: invite.inviteAs,
    }));
  } catch (err) {
    await ctx.repo.releaseSignup(signup.id);
    if (isConfabError(err) && err.status === 400) return { kind: 'refused', message: err.message };
    throw err;
  }
  await ctx.repo.setSignupUser(signup.id, userId);
  if (invite.email !== null) await ctx.repo.markUsed(invite.id, ctx.now?.() ?? new Date());
  await completeJoin(ctx, invite, userId, fullName.trim());
  await ctx.repo.completeSignup(signup.id, ctx.now?.() ?? new Date());
  return { kind: 'created', userId };
}

export type SsoSignUpOutcome =
  | { kind: 'none' }
  | { kind: 'created'; userId: number }
  | { kind: 'refused'; message: string }
  | { kind: 'already'; completed: boolean };

/**
 * A person the company's identity provider vouched for signs in for the first time (Zulip's
 * maybe_send_to_registration, which takes the role and channels of the address's latest valid invitation): their
 * latest pending email invitation — not expired, revoked or used — is accepted without a password. `none`: there is
 * no such invitation (or the organization is deactivated).
 */
export async function signUpBySso(
  ctx: JoinContext,
  realmId: number,
  email: string,
  fullName: string,
): Promise<SsoSignUpOutcome> {
  const address = email.trim();
  const pending = (await ctx.repo.active(realmId, ctx.now?.() ?? new Date())).filter(
    (invite) => invite.email !== null && invite.email.toLowerCase() === address.toLowerCase(),
  );
  const latest = pending.at(-1);
  if (!latest) return { kind: 'none' };
  const realm = await ctx.owners.realm(realmId);
  if (!realm || realm.deactivated) return { kind: 'none' };
  return accept(ctx, latest, address, fullName, null);
}

/** Channels, groups and the welcome message; a step that fails is logged and the others still run. */
async function completeJoin(ctx: JoinContext, invite: Invite, userId: number, fullName: string): Promise<void> {
  const step = async (name: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      ctx.logger.error({ err, invite_id: invite.id, user_id: userId }, `joining: ${name} failed`);
    }
  };
  await step('subscribing', () =>
    ctx.owners.subscribe(invite.realmId, userId, invite.streamIds, invite.includeRealmDefaultSubscriptions),
  );
  if (invite.groupIds.length > 0)
    await step('joining groups', () => ctx.owners.joinGroups(invite.realmId, userId, invite.groupIds));
  // Zulip's process_new_human_user: the Notification Bot tells the referrer of an email invitation.
  if (invite.email !== null && invite.notifyReferrerOnJoin)
    await step('telling the referrer', () =>
      ctx.owners.sendWelcome(
        invite.realmId,
        invite.referrerId,
        invite.referrerId,
        `@_**${fullName}|${userId}** accepted your invitation to join Zulip!`,
        true,
      ),
    );
  const welcome = welcomeMessage(invite, ctx.defaultWelcomeText);
  if (welcome !== null)
    await step('welcome message', () => ctx.owners.sendWelcome(invite.realmId, invite.referrerId, userId, welcome));
}
