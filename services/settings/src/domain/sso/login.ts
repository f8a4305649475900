import { randomBytes } from 'node:crypto';
import { ROLE_MEMBER } from '@confab/identity';
import { userApiKey } from '../auth.js';
import { emailRefusal } from '../email-rules.js';
import { createUsers, type ProvisioningContext } from '../provisioning.js';
import { allowedDomains } from '../realm-domains.js';
import { realmSetting } from '../realm-setting-defaults.js';
import { realmUrl } from '../realms.js';
import type { Realm, User } from '../types.js';
import { isValidOtp, otpRedirectUrl } from './otp.js';
import { SsoRefused, type PendingInvitations, type SsoFlowStore } from './ports.js';

/**
 * The end every identity method shares (Zulip's login_or_register_remote_user): the person the directory or the
 * identity provider vouched for is found, or made an account where the organization allows it, and then gets what
 * the flow asked for: a browser session (a one-time login token the gateway turns into one), or the mobile and desktop
 * apps' `zulip://login` redirect with the OTP-encrypted API key.
 */

export interface VouchedPerson {
  email: string;
  fullName: string;
}

export interface SignupPolicy {
  /** The IdP's auto_signup: an account is made on first sign-in even in an invite-only organization. */
  autoSignup: boolean;
  /**
   * The directory (LDAP) is trusted for the address: the organization's allowed-domains and disposable-email rules
   * don't refuse its people (issue 42), and they get an account on first login.
   */
  trustedDirectory?: boolean;
}

/** What a first sign-in may need beyond making the account: the invitations service. */
export interface SignupContext extends ProvisioningContext {
  invitations?: PendingInvitations | undefined;
}

/** What the app asked for at the flow's start: `mobile_flow_otp` / `desktop_flow_otp`, and where to go next. */
export interface FlowRequest {
  mobileFlowOtp: string | null;
  desktopFlowOtp: string | null;
  next: string;
}

const deactivatedRealm = () => new SsoRefused('This organization has been deactivated.');

/** A printable full name for a new account, whatever the IdP sent. */
function usableName(raw: string, email: string): string {
  const printable = [...raw].map((c) => (c < ' ' || c === '\u007f' || '*`\\>"@'.includes(c) ? ' ' : c)).join('');
  const name = [...printable.trim()].slice(0, 60).join('');
  return name.length >= 1 ? name : email.split('@')[0]!;
}

const noInvitation = (email: string) =>
  new SsoRefused(`There is no account for ${email} in this organization. Ask an administrator for an invitation.`);

/**
 * The account of the person, made when the organization lets them in (Zulip's login_or_register_remote_user and
 * maybe_send_to_registration): an address the organization's email rules refuse gets no account (the directory's
 * people excepted); a pending invitation for the address is accepted, with its role and channels, and used up; else
 * the IdP's auto_signup, or an organization anyone may join, makes a member. Refused: a deactivated organization or
 * account, or no account and no way in.
 */
export async function findOrCreateSsoUser(
  ctx: SignupContext,
  realm: Realm,
  person: VouchedPerson,
  policy: SignupPolicy,
): Promise<{ user: User; created: boolean }> {
  if (realm.deactivated) throw deactivatedRealm();
  const existing = await ctx.db.store.users.byEmail(realm.id, person.email);
  if (existing) {
    if (existing.isBot) throw new SsoRefused('This account is a bot and cannot sign in.');
    if (!existing.isActive) throw new SsoRefused(`The account ${person.email} has been deactivated.`);
    return { user: existing, created: false };
  }
  if (!policy.trustedDirectory) {
    const refusal = emailRefusal(realm, person.email, await allowedDomains(ctx.db.store, realm.id));
    if (refusal !== null) throw new SsoRefused(refusal);
  }
  const fullName = usableName(person.fullName, person.email);
  if (!policy.trustedDirectory && ctx.invitations) {
    const invitedId = await ctx.invitations.acceptBySso(realm.id, person.email, fullName);
    if (invitedId !== null) {
      const invited = await ctx.db.store.users.byId(invitedId);
      if (invited) return { user: invited, created: true };
    }
  }
  const open = realmSetting<boolean>(realm, 'invite_required') === false;
  if (!policy.autoSignup && !policy.trustedDirectory && !open) throw noInvitation(person.email);
  try {
    const [made] = await createUsers(ctx, realm, [
      { email: person.email, fullName, role: ROLE_MEMBER, password: null },
    ]);
    return { user: made!.user, created: true };
  } catch (err) {
    // Two first sign-ins at once: the other made the account.
    const raced = await ctx.db.store.users.byEmail(realm.id, person.email);
    if (raced?.isActive) return { user: raced, created: false };
    throw err;
  }
}

/** A `next` that stays on this site (a path), else the home page. */
export function safeNext(next: string): string {
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export const LOGIN_TOKEN_KIND = 'login';
const LOGIN_TOKEN_SECONDS = 60;
/** Where the gateway turns a login token into a session (Zulip's /accounts/login/subdomain/<token>). */
export const LOGIN_TOKEN_PATH = '/accounts/login/subdomain';

/** Where the browser goes once the person is known: the app's redirect, or the gateway's session step. */
export async function finishFlow(
  ctx: { db: ProvisioningContext['db']; externalUrl: string; flows: SsoFlowStore },
  realm: Realm,
  user: User,
  request: FlowRequest,
): Promise<string> {
  const otp = request.mobileFlowOtp ?? request.desktopFlowOtp;
  if (otp !== null) {
    if (!isValidOtp(otp)) throw new SsoRefused('Invalid OTP');
    return otpRedirectUrl({
      realmUrl: realmUrl(realm, ctx.externalUrl),
      email: user.deliveryEmail,
      apiKey: await userApiKey(ctx.db, user),
      userId: user.id,
      otp,
    });
  }
  const token = randomBytes(32).toString('base64url');
  await ctx.flows.put(
    LOGIN_TOKEN_KIND,
    token,
    { user_id: user.id, realm_id: realm.id, next: safeNext(request.next) },
    LOGIN_TOKEN_SECONDS,
  );
  return `${realmUrl(realm, ctx.externalUrl)}${LOGIN_TOKEN_PATH}/${token}`;
}

/**
 * The gateway's side of a login token: the user it stands for and their API key (for the session), once. Null when
 * the token is unknown, used or expired, or the user can no longer sign in.
 */
export async function redeemLoginToken(
  ctx: { db: ProvisioningContext['db']; flows: SsoFlowStore },
  token: string,
): Promise<{ userId: number; email: string; apiKey: string; next: string; realmId: number } | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const found = await ctx.flows.take(LOGIN_TOKEN_KIND, token);
  if (!found || typeof found.user_id !== 'number') return null;
  const user = await ctx.db.store.users.byId(found.user_id);
  if (!user || !user.isActive) return null;
  const realm = await ctx.db.store.realms.byId(user.realmId);
  if (!realm || realm.deactivated) return null;
  return {
    userId: user.id,
    email: user.deliveryEmail,
    apiKey: await userApiKey(ctx.db, user),
    next: typeof found.next === 'string' ? safeNext(found.next) : '/',
    realmId: realm.id,
  };
}
