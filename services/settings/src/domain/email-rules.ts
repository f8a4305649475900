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

/** Zulip's refusal of the address for the organization, or null when it may join. */
export function emailRefusal(
  realm: Pick<Realm, 'settings'>,
  email: string,
  domains: readonly AllowedDomain[],
): string | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (realmSetting<boolean>(realm, 'emails_restricted_to_domains') === true) {
    if (local.includes('+')) return 'Email addresses containing + are not allowed in this organization.';
    if (!domainAllowed(domain, domains)) {
      return (
        `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in ` +
        'this organization.'
      );
    }
    return null;
  }
  if (realmSetting<boolean>(realm, 'disallow_disposable_email_addresses') !== false && isDisposableDomain(domain))
    return 'Please use your real email address.';
  return null;
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
