import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { invalid, organizationAdministratorRequired } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import type { AllowedDomain } from './email-rules.js';
import { realmSetting } from './realm-setting-defaults.js';
import { AlreadyExists, type Database, type Store } from './store.js';
import type { RealmDomain } from './types.js';

/**
 * The organization's email domains (Zulip's RealmDomain, zerver/views/realm_domains.py): every member reads them;
 * administrators add, change and remove them. With `emails_restricted_to_domains`, new accounts' addresses must be
 * in one of them (email-rules.ts).
 */

export function realmDomainRecord(domain: RealmDomain): contracts.RealmDomainRecord {
  return { domain: domain.domain, allow_subdomains: domain.allowSubdomains };
}

/** GET /realm/domains and `realm_domains` of POST /register. */
export async function listRealmDomains(db: Database, realmId: number): Promise<contracts.RealmDomainRecord[]> {
  return (await db.store.domains.inRealm(realmId)).map(realmDomainRecord);
}

/** The organization's domains as the email rules take them. */
export async function allowedDomains(store: Store, realmId: number): Promise<AllowedDomain[]> {
  return (await store.domains.inRealm(realmId)).map((d) => ({ domain: d.domain, allowSubdomains: d.allowSubdomains }));
}

/** Zulip's validate_domain: the reason a (lower-cased) domain is refused, or null. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

function requireAdministrator(actor: UserIdentity): void {
  if (actor.role > ROLE_ADMINISTRATOR) throw organizationAdministratorRequired();
}

const noEntry = (domain: string) => invalid(`No entry found for domain ${domain}.`);

function changed(actor: UserIdentity, op: 'add' | 'change' | 'remove', domain: RealmDomain, requestId: string) {
  return outboxRecord(
    contracts.realmDomainsChanged,
    { realm_id: actor.realmId, op, realm_domain: realmDomainRecord(domain) },
    { realmId: actor.realmId, requestId },
  );
}

/** POST /realm/domains: Zulip's create_realm_domain; answers `new_domain` as Zulip does, [id, domain]. */
export async function addRealmDomain(
  db: Database,
  actor: UserIdentity,
  rawDomain: string,
  allowSubdomains: boolean,
  requestId: string,
): Promise<[number, string]> {
  requireAdministrator(actor);
  const domain = rawDomain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem !== null) throw invalid(`Invalid domain: ${problem}`);
  const taken = () => invalid(`The domain ${domain} is already a part of your organization.`);
  if (await db.store.domains.byDomain(actor.realmId, domain)) throw taken();
  try {
    return await db.write(async (store) => {
      const row = await store.domains.create(actor.realmId, domain, allowSubdomains);
      return { result: [row.id, row.domain], events: [changed(actor, 'add', row, requestId)] };
    });
  } catch (err) {
    // Two requests at once: the other added it.
    if (err instanceof AlreadyExists) throw taken();
    throw err;
  }
}

/** PATCH /realm/domains/{domain}: Zulip's patch_realm_domain (the domain as stored: exact, lower-case). */
export async function changeRealmDomain(
  db: Database,
  actor: UserIdentity,
  domain: string,
  allowSubdomains: boolean,
  requestId: string,
): Promise<void> {
  requireAdministrator(actor);
  await db.write(async (store) => {
    const row = await store.domains.byDomain(actor.realmId, domain);
    if (!row) throw noEntry(domain);
    const updated = await store.domains.setAllowSubdomains(row.id, allowSubdomains);
    return { result: undefined, events: [changed(actor, 'change', updated, requestId)] };
  });
}

/**
 * DELETE /realm/domains/{domain}: Zulip's do_remove_realm_domain. Removing the last domain of an organization
 * restricted to its domains lifts the restriction (which would otherwise refuse every address), with Zulip's
 * `realm` update event for it.
 */
export async function removeRealmDomain(
  db: Database,
  actor: UserIdentity,
  domain: string,
  requestId: string,
): Promise<void> {
  requireAdministrator(actor);
  await db.write(async (store) => {
    const row = await store.domains.byDomain(actor.realmId, domain);
    if (!row) throw noEntry(domain);
    await store.domains.remove(row.id);
    const events: OutboxRecord[] = [];
    const realm = await store.realms.lock(actor.realmId);
    const left = await store.domains.inRealm(actor.realmId);
    if (realm && left.length === 0 && realmSetting<boolean>(realm, 'emails_restricted_to_domains') === true) {
      await store.realms.update(realm.id, { settings: { ...realm.settings, emails_restricted_to_domains: false } });
      const change = { type: 'realm' as const, op: 'update' as const, property: 'emails_restricted_to_domains' };
      events.push(
        outboxRecord(
          contracts.realmSettingsChanged,
          { realm_id: realm.id, changes: [{ ...change, value: false }] },
          { realmId: realm.id, requestId },
        ),
      );
    }
    events.push(changed(actor, 'remove', row, requestId));
    return { result: undefined, events };
  });
}
