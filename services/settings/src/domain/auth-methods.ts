import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_OWNER, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { ownerRequired } from './realm-settings.js';
import { realmRecord } from './realms.js';
import type { Database } from './store.js';
import type { Realm } from './types.js';
import { configuredMethods, ssoMethodEnabled, withSsoMethods, type SsoMethodKey } from './sso/methods.js';
import { NO_SSO, type SsoSettings } from './sso/settings.js';

/**
 * The organization's authentication methods (`authentication_methods` of PATCH /realm, as Zulip's update_realm):
 * `Email` (password sign-in, the realm's email_auth_enabled column) and, where the organization has a JWT key, `JWT`
 * (switched off by `jwt_auth_disabled` in its stored settings, so that the key is kept).
 */
export function jwtAuthEnabled(realm: Pick<Realm, 'jwtKey' | 'settings'>): boolean {
  return !!realm.jwtKey && realm.settings.jwt_auth_disabled !== true;
}

/**
 * Zulip's authentication_methods_dict: the methods this organization has, enabled or not — `Email`, `JWT` where it
 * has a key, and the identity methods the server is configured with (`LDAP`, `SAML`, `OpenID Connect`, `GitHub`, …).
 */
function methodsOf(realm: Realm, sso: SsoSettings): Record<string, boolean> {
  const methods: Record<string, boolean> = { Email: realm.emailAuthEnabled };
  for (const key of configuredMethods(sso)) methods[key] = ssoMethodEnabled(sso, realm, key);
  if (realm.jwtKey) methods.JWT = jwtAuthEnabled(realm);
  return methods;
}

/** `realm_authentication_methods` of /register and of the update event. */
export function authenticationMethodsState(
  realm: Realm,
  sso: SsoSettings = NO_SSO,
): Record<string, { enabled: boolean; available: boolean }> {
  return Object.fromEntries(
    Object.entries(methodsOf(realm, sso)).map(([name, enabled]) => [name, { enabled, available: true }]),
  );
}

/** Zulip's checks, in its order: administrators, owners, at least one enabled, known names. */
export async function checkAuthenticationMethods(
  db: Database,
  actor: UserIdentity,
  methods: Record<string, boolean>,
  sso: SsoSettings = NO_SSO,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  if (actor.role !== ROLE_OWNER) throw ownerRequired();
  if (!Object.values(methods).includes(true)) throw invalid('At least one authentication method must be enabled.');
  const realm = await db.store.realms.byId(actor.realmId);
  const known = realm ? Object.keys(methodsOf(realm, sso)).sort() : [];
  for (const name of Object.keys(methods)) {
    if (!known.includes(name))
      throw invalid(
        `Invalid authentication method: ${name}. Valid methods are: [${known.map((m) => `'${m}'`).join(', ')}]`,
      );
  }
}

/** Zulip's do_set_realm_authentication_methods: the change, and a realm `update_dict` event to everyone. */
export async function setAuthenticationMethods(
  ctx: { db: Database; externalUrl: string; sso?: SsoSettings },
  actor: UserIdentity,
  methods: Record<string, boolean>,
  requestId: string,
): Promise<void> {
  await ctx.db.write(async (store) => {
    const realm = await store.realms.lock(actor.realmId);
    if (!realm) throw invalid('No such organization');
    const sso = ctx.sso ?? NO_SSO;
    const before = methodsOf(realm, sso);
    const wanted = { ...before, ...methods };
    if (Object.keys(wanted).every((name) => wanted[name] === before[name])) return { result: undefined, events: [] };
    const ssoChanges: Partial<Record<SsoMethodKey, boolean>> = {};
    for (const key of configuredMethods(sso)) ssoChanges[key] = wanted[key] === true;
    let settings = withSsoMethods({ ...realm.settings }, ssoChanges);
    if (configuredMethods(sso).length === 0 && realm.settings.disabled_auth_methods === undefined) {
      settings = { ...realm.settings };
    }
    if ('JWT' in wanted) settings.jwt_auth_disabled = !wanted.JWT;
    const updated = await store.realms.update(realm.id, { emailAuthEnabled: wanted.Email, settings });
    const meta = { realmId: realm.id, requestId };
    const change: contracts.RealmClientChange = {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { authentication_methods: authenticationMethodsState(updated, sso) },
    };
    return {
      result: undefined,
      events: [
        outboxRecord(contracts.realmUpdated, { realm: realmRecord(updated, ctx.externalUrl) }, meta),
        outboxRecord(contracts.realmSettingsChanged, { realm_id: realm.id, changes: [change] }, meta),
      ],
    };
  });
}
