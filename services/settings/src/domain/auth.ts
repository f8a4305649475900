import { jwtAuthEnabled } from './auth-methods.js';
import jwt from 'jsonwebtoken';
import { ConfabError, rateLimited, unauthorized, invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { generateApiKey, hashApiKey, isWellFormedApiKey, verifyPassword } from './credentials.js';
import type { Database } from './store.js';
import type { Realm, User } from './types.js';
import { identityOf } from './users.js';

/** Counts failed logins per username, so password guessing is slowed down (Zulip's authenticate_by_username). */
export interface FailureLimiter {
  /** Seconds until another attempt is allowed, or 0. */
  retryAfter(username: string): Promise<number>;
  recordFailure(username: string): Promise<void>;
}

const authFailed = () =>
  new ConfabError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });
export const userDeactivated = () =>
  new ConfabError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
const realmDeactivated = () =>
  new ConfabError('This organization has been deactivated', { code: 'REALM_DEACTIVATED', status: 401 });
export const invalidSubdomain = () =>
  new ConfabError('Invalid subdomain', { code: 'NONEXISTENT_SUBDOMAIN', status: 404 });

/** Django's EmailValidator, closely enough for login names. */
export function isValidEmail(email: string): boolean {
  return /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
    email,
  );
}

/** The user's one API key, as Zulip's fetch_api_key answers it (made on first use; regenerating replaces it). */
export async function userApiKey(db: Database, user: User): Promise<string> {
  const fresh = generateApiKey();
  return db.store.users.ensureApiKey(user.id, fresh, hashApiKey(fresh));
}

/**
 * The directory side of a password login (LDAP / Active Directory), when the server has one: `enabled` says whether
 * the organization has the method on, `login` checks the credentials against the directory and answers the user
 * (made on first login), or null when the directory does not know them.
 */
export interface DirectoryLogin {
  enabled(realm: Realm): boolean;
  login(realm: Realm, username: string, password: string): Promise<User | null>;
}

/**
 * POST /fetch_api_key: Zulip's checks in Zulip's order, the user's API key on success. With LDAP on, the name may be
 * a directory uid as well as an email address, and the directory's password opens the account (Zulip tries the
 * organization's own password first, then the directory).
 */
export async function fetchApiKeyByPassword(
  db: Database,
  limiter: FailureLimiter,
  realm: Realm | null,
  username: string,
  password: string,
  directory?: DirectoryLogin,
): Promise<{ api_key: string; email: string; user_id: number }> {
  if (!realm) throw invalidSubdomain();
  const login = username.trim();
  const ldapOn = directory?.enabled(realm) ?? false;
  if (!ldapOn && !isValidEmail(login)) throw invalid('Enter a valid email address.');
  const limiterKey = `${realm.id}:${login.toLowerCase()}`;
  const wait = await limiter.retryAfter(limiterKey);
  if (wait > 0) throw rateLimited(wait);
  if (realm.deactivated) throw realmDeactivated();
  let user = isValidEmail(login) ? await db.store.users.byEmail(realm.id, login) : null;
  if (user && !user.isActive) throw userDeactivated();
  if (!realm.emailAuthEnabled && !ldapOn) {
    throw new ConfabError('Password authentication is disabled in this organization', {
      code: 'PASSWORD_AUTH_DISABLED',
      status: 401,
    });
  }
  let ok = realm.emailAuthEnabled && !!user && (await verifyPassword(password, user.passwordHash));
  if (!ok && ldapOn && directory) {
    const found = await directory.login(realm, login, password);
    if (found) {
      user = found;
      ok = true;
    }
  }
  if (!ok || !user) {
    await limiter.recordFailure(limiterKey);
    throw authFailed();
  }
  return { api_key: await userApiKey(db, user), email: user.deliveryEmail, user_id: user.id };
}

/** POST /jwt/fetch_api_key: an HS256 token signed with the organization's key, carrying an `email` claim. */
export async function fetchApiKeyByJwt(
  db: Database,
  realm: Realm | null,
  token: string,
): Promise<{ api_key: string; user: User }> {
  if (!realm) throw invalidSubdomain();
  if (!realm.jwtKey || !jwtAuthEnabled(realm)) throw invalid('JWT authentication is not enabled for this organization');
  if (token === '') throw invalid('No JSON web token passed in request');
  let claims: unknown;
  try {
    claims = jwt.verify(token, realm.jwtKey, { algorithms: ['HS256'] });
  } catch {
    throw invalid('Bad JSON web token');
  }
  const email = typeof claims === 'object' && claims !== null ? (claims as { email?: unknown }).email : undefined;
  if (typeof email !== 'string' || email === '') throw invalid('No email specified in JSON web token claims');
  if (realm.deactivated) throw realmDeactivated();
  const user = await db.store.users.byEmail(realm.id, email);
  if (!user) throw authFailed();
  if (!user.isActive) throw userDeactivated();
  return { api_key: await userApiKey(db, user), user };
}

/**
 * POST /dev_fetch_api_key: Zulip's one-click development login for mobile and terminal clients — any account's key
 * by its address, no password. Served only with CONFAB_DEV_ENDPOINTS (`npm start`); elsewhere Zulip's answer for a
 * server without its development authentication backend.
 */
export async function fetchApiKeyForDevelopment(
  db: Database,
  realm: Realm | null,
  username: string,
  enabled: boolean,
): Promise<{ api_key: string; email: string; user_id: number }> {
  if (!enabled) throw invalid('DevAuthBackend not enabled.');
  if (!realm) throw invalidSubdomain();
  if (realm.deactivated) throw realmDeactivated();
  const user = await db.store.users.byEmail(realm.id, username.trim());
  if (!user) throw authFailed();
  if (!user.isActive) throw userDeactivated();
  return { api_key: await userApiKey(db, user), email: user.deliveryEmail, user_id: user.id };
}

/**
 * What the gateway asks for every uncached request: whose key is this? Failures carry Zulip's messages; over
 * Basic authentication they are all 401 UNAUTHORIZED. Without an email (an incoming webhook's `api_key` parameter)
 * the key alone names the user, as in Zulip's webhook_view.
 */
export async function authenticateApiKey(
  db: Database,
  email: string | null,
  apiKey: string,
  subdomain?: string,
): Promise<UserIdentity> {
  const key = apiKey.trim();
  if (!isWellFormedApiKey(key)) throw unauthorized('Malformed API key');
  const found = await db.store.users.byApiKeyHash(hashApiKey(key));
  const login = email?.trim().toLowerCase() ?? null;
  const emailMatches = (user: User) =>
    login === null || user.deliveryEmail.toLowerCase() === login || user.email.toLowerCase() === login;
  if (!found || !emailMatches(found.user)) throw unauthorized('Invalid API key');
  if (found.realm.deactivated) throw unauthorized('This organization has been deactivated');
  if (!found.user.isActive) throw unauthorized('Account is deactivated');
  // Zulip's validate_account_and_subdomain: a key works only on its own organization's host.
  if (subdomain !== undefined && found.realm.stringId !== subdomain)
    throw unauthorized('Account is not associated with this subdomain');
  return identityOf(found.user);
}
