import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_OWNER, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { ownerRequired } from './realm-settings.js';
import { realmRecord } from './realms.js';
import type { Database } from './store.js';
import type { Realm } from './types.js';

/**
 * The organization's authentication methods (`authentication_methods` of PATCH /realm, as Zulip's update_realm):
 * `Email` (password sign-in, the realm's email_auth_enabled column) and, where the organization has a JWT key, `JWT`
 * (switched off by `jwt_auth_disabled` in its stored settings, so that the key is kept).
 */
export function jwtAuthEnabled(realm: Pick<Realm, 'jwtKey' | 'settings'>): boolean {
  return !!realm.jwtKey && realm.settings.jwt_auth_disabled !== true;
}

/** Zulip's authentication_methods_dict: the methods this organization has, enabled or not. */
function methodsOf(realm: Realm): Record<string, boolean> {
  return { Email: realm.emailAuthEnabled, ...(realm.jwtKey ? { JWT: jwtAuthEnabled(realm) } : {}) };
}

/** `realm_authentication_methods` of /register and of the update event. */
export function authenticationMethodsState(realm: Realm): Record<string, { enabled: boolean; available: boolean }> {
  return Object.fromEntries(
    Object.entries(methodsOf(realm)).map(([name, enabled]) => [name, { enabled, available: true }]),
  );
}

/** Zulip's checks, in its order: administrators, owners, at least one enabled, known names. */
export async function checkAuthenticationMethods(
  db: Database,
  actor: UserIdentity,
  methods: Record<string, boolean>,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  if (actor.role !== ROLE_OWNER) throw ownerRequired();
  if (!Object.values(methods).includes(true)) throw invalid('At least one authentication method must be enabled.');
  const realm = await db.store.realms.byId(actor.realmId);
  const known = realm ? Object.keys(methodsOf(realm)).sort() : [];
  for (const name of Object.keys(methods)) {
    if (!known.includes(name))
      throw invalid(
        `Invalid authentication method: ${name}. Valid methods are: [${known.map((m) => `'${m}'`).join(', ')}]`,
      );
  }
}

/** Zulip's do_set_realm_authentication_methods: the change, and a realm `update_dict` event to everyone. */
export async function setAuthenticationMethods(
  ctx: { db: Database; externalUrl: string },
  actor: UserIdentity,
  methods: Record<string, boolean>,
  requestId: string,
): Promise<void> {
  await ctx.db.write(async (store) => {
    const realm = await store.realms.lock(actor.realmId);
    if (!realm) throw invalid('No such organization');
    const before = methodsOf(realm);
    const wanted = { ...before, ...methods };
    if (Object.keys(wanted).every((name) => wanted[name] === before[name])) return { result: undefined, events: [] };
    const settings = { ...realm.settings };
    if ('JWT' in wanted) settings.jwt_auth_disabled = !wanted.JWT;
    const updated = await store.realms.update(realm.id, { emailAuthEnabled: wanted.Email, settings });
    const meta = { realmId: realm.id, requestId };
    const change: contracts.RealmClientChange = {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { authentication_methods: authenticationMethodsState(updated) },
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
