import { invalid, notFound } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_MEMBER, type Role, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { isValidEmail } from './auth.js';
import { emailRefusal } from './email-rules.js';
import { isStrongPassword, type PasswordPolicy } from './password-strength.js';
import { createUsers } from './provisioning.js';
import { allowedDomains } from './realm-domains.js';
import type { Database } from './store.js';
import type { User } from './types.js';
import { checkFullName } from './validators.js';

export interface InvitedUserContext {
  db: Database;
  externalUrl: string;
  passwordHashCost: number;
  passwordPolicy: PasswordPolicy;
  requestId?: string | undefined;
}

export interface InvitedUserSpec {
  realmId: number;
  email: string;
  fullName: string;
  /** Null: the person signed in with the company's identity (SSO), which vouched for the address. */
  password: string | null;
  role: Role;
}

/**
 * An account created through an invitation link (the invitations service checked the link): the same checks a
 * person gets on Zulip's sign-up form (the organization's email rules among them), then the ordinary user creation with its `user.created` event.
 */
export async function createInvitedUser(
  ctx: InvitedUserContext,
  spec: InvitedUserSpec,
): Promise<{ user: User; eventIds: string[] }> {
  const realm = await ctx.db.store.realms.byId(spec.realmId);
  if (!realm) throw notFound('No such organization');
  if (realm.deactivated) throw invalid('This organization has been deactivated');
  const email = spec.email.trim();
  if (!isValidEmail(email)) throw invalid('Enter a valid email address.');
  // The organization's email rules (its domains, disposable addresses), as Zulip's sign-up form applies them.
  const refusal = emailRefusal(realm, email, await allowedDomains(ctx.db.store, realm.id));
  if (refusal !== null) throw invalid(refusal);
  const fullName = checkFullName(spec.fullName);
  if (spec.password !== null && !isStrongPassword(spec.password, ctx.passwordPolicy))
    throw invalid('The password is too weak.');
  if (await ctx.db.store.users.byEmail(realm.id, email.toLowerCase())) throw invalid('Email is already in use.');
  const eventIds: string[] = [];
  const [created] = await createUsers(
    {
      db: ctx.db,
      externalUrl: ctx.externalUrl,
      passwordHashCost: ctx.passwordHashCost,
      requestId: ctx.requestId,
      onEvents: (ids) => eventIds.push(...ids),
    },
    realm,
    [{ email, fullName, role: spec.role, password: spec.password, viaInvitation: true }],
  );
  return { user: created!.user, eventIds };
}

/**
 * POST /users (Zulip's create_user_backend): an administrator creates an account with a password. Zulip asks for
 * the `can_create_users` permission a server administrator grants; Confab grants it to organization administrators.
 */
export async function createUserByAdministrator(
  ctx: InvitedUserContext,
  actor: UserIdentity,
  spec: { email: string; fullName: string; password: string },
): Promise<User> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const realm = await ctx.db.store.realms.byId(actor.realmId);
  if (!realm) throw notFound('No such organization');
  const fullName = checkFullName(spec.fullName);
  const email = spec.email.trim();
  if (!isValidEmail(email)) throw invalid('Bad name or username');
  if (await ctx.db.store.users.byEmail(realm.id, email.toLowerCase())) throw invalid('Email is already in use.');
  if (!isStrongPassword(spec.password, ctx.passwordPolicy)) throw invalid('The password is too weak.');
  const [created] = await createUsers(
    { db: ctx.db, externalUrl: ctx.externalUrl, passwordHashCost: ctx.passwordHashCost, requestId: ctx.requestId },
    realm,
    [{ email, fullName, role: ROLE_MEMBER, password: spec.password }],
  );
  return created!.user;
}
