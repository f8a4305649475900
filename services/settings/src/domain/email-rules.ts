import disposableDomains from 'disposable-email-domains/index.json';
import { realmSetting } from './realm-setting-defaults.js';
import type { Realm } from './types.js';

/**
 * Whether an address may get an account in an organization (Zulip's email_allowed_for_realm and the messages of its
 * sign-up form, HomepageForm): with `emails_restricted_to_domains`, only the organization's domains (a domain with
 * `allow_subdomains` lets in its subdomains too) and no `+` in the local part; otherwise, with
 * `disallow_disposable_email_addresses` (on by default), no throwaway-mail domain. This says nothing of invitations.
 */

export interface AllowedDomain {
  domain: string;
  allowSubdomains: boolean;
}

const DISPOSABLE = new Set<string>(disposableDomains);

/** Zulip's is_disposable_domain, from the same public list of throwaway-mail domains. */
export function isDisposableDomain(domain: string): boolean {
  return DISPOSABLE.has(domain.toLowerCase());
}

/** Which of the organization's rules refuses the address (Zulip's get_realm_email_validator), or null. */
function brokenRule(
  realm: Pick<Realm, 'settings'>,
  email: string,
  domains: readonly AllowedDomain[],
): 'plus' | 'outside' | 'disposable' | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (realmSetting<boolean>(realm, 'emails_restricted_to_domains') === true) {
    if (local.includes('+')) return 'plus';
    return domainAllowed(domain, domains) ? null : 'outside';
  }
  if (realmSetting<boolean>(realm, 'disallow_disposable_email_addresses') !== false && isDisposableDomain(domain))
    return 'disposable';
  return null;
}

/** Zulip's refusal of the address for the organization, or null when it may join (its sign-up form's texts). */
export function emailRefusal(
  realm: Pick<Realm, 'settings'>,
  email: string,
  domains: readonly AllowedDomain[],
): string | null {
  switch (brokenRule(realm, email, domains)) {
    case 'plus':
      return 'Email addresses containing + are not allowed in this organization.';
    case 'outside':
      return (
        `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in ` +
        'this organization.'
      );
    case 'disposable':
      return 'Please use your real email address.';
    case null:
      return null;
  }
}

/** The same rules with POST /invites' short texts (Zulip's validate_email_is_valid), or null. */
export function inviteeRefusal(
  realm: Pick<Realm, 'settings'>,
  email: string,
  domains: readonly AllowedDomain[],
): string | null {
  switch (brokenRule(realm, email, domains)) {
    case 'plus':
      return 'Email addresses containing + are not allowed.';
    case 'outside':
      return 'Outside your domain.';
    case 'disposable':
      return 'Please use your real email address.';
    case null:
      return null;
  }
}

function domainAllowed(domain: string, domains: readonly AllowedDomain[]): boolean {
  if (domains.some((d) => d.domain.toLowerCase() === domain)) return true;
  // A parent domain that allows its subdomains: b.example.com is let in by example.com, not by b.example.com itself.
  for (let rest = domain; rest.includes('.');) {
    rest = rest.slice(rest.indexOf('.') + 1);
    if (domains.some((d) => d.allowSubdomains && d.domain.toLowerCase() === rest)) return true;
  }
  return false;
}
