import type { Directory, DirectoryEntry } from './ports.js';
import type { LdapSettings } from './settings.js';

/**
 * LDAP / Active Directory sign-in (Zulip's ZulipLDAPAuthBackend): search-then-bind with the service account, or a
 * direct bind through a DN template. Login names reach the directory only escaped (RFC 4515 in filters, RFC 4514 in
 * DNs), and an empty password never reaches it.
 */

/** RFC 4515 §3: `*`, `(`, `)`, `\` and NUL as `\XX` in an assertion value. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** RFC 4514 §2.4: a value inside a DN, its special characters escaped. */
export function escapeDnValue(value: string): string {
  let out = value.replace(/[\\,+"<>;=\0]/g, (c) => (c === '\0' ? '\\00' : `\\${c}`));
  if (out.startsWith('#') || out.startsWith(' ')) out = `\\${out}`;
  if (out.endsWith(' ') && !out.endsWith('\\ ')) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/** AD's userAccountControl ACCOUNTDISABLE bit. */
const ACCOUNTDISABLE = 0x2;

/** The entry's first value of an attribute (names compared without case), binary ones as base64. */
export const first = (entry: DirectoryEntry, attr: string): string | undefined => {
  const wanted = attr.toLowerCase();
  for (const [name, values] of Object.entries(entry.attributes)) {
    if (name.toLowerCase() === wanted && values.length > 0) return values[0];
  }
  return undefined;
};

/** The attributes a login or the sync reads. */
export function entryAttributes(settings: LdapSettings): string[] {
  const names = [settings.emailAttr, settings.nameAttr, 'uid', 'userAccountControl'];
  if (settings.deactivatedAttr) names.push(settings.deactivatedAttr);
  if (settings.avatarAttr) names.push(settings.avatarAttr);
  names.push(...Object.values(settings.profileFieldAttrs));
  return [...new Set(names)];
}

/** Whether the directory says the account is disabled (AD's ACCOUNTDISABLE, or the configured attribute `TRUE`). */
export function entryDisabled(settings: LdapSettings, entry: DirectoryEntry): boolean {
  const control = first(entry, 'userAccountControl');
  if (control !== undefined && /^\d+$/.test(control) && (Number(control) & ACCOUNTDISABLE) !== 0) return true;
  if (settings.deactivatedAttr) {
    const flag = first(entry, settings.deactivatedAttr);
    if (flag !== undefined && flag.trim().toUpperCase() === 'TRUE') return true;
  }
  return false;
}

/** The entry's email address: its email attribute, or `<uid>@<LDAP_APPEND_DOMAIN>`; null when it has none. */
export function entryEmail(settings: LdapSettings, entry: DirectoryEntry, login: string): string | null {
  if (settings.appendDomain) {
    const uid = first(entry, 'uid') ?? login.split('@')[0]!;
    return `${uid}@${settings.appendDomain}`.toLowerCase();
  }
  const mail = first(entry, settings.emailAttr);
  return mail ? mail.trim() : null;
}

/** The entry's full name (its name attribute), or the email's local part when it has none. */
export function entryFullName(settings: LdapSettings, entry: DirectoryEntry, email: string): string {
  const name = first(entry, settings.nameAttr)?.trim();
  return name && name !== '' ? name : email.split('@')[0]!;
}

/**
 * The search filter for a login name: the configured filter with `{username}` escaped; a login in email form also
 * matches the email attribute (users log in with their uid or their address).
 */
export function searchFilter(settings: LdapSettings, login: string): string {
  const escaped = escapeFilterValue(login);
  const byName = settings.userFilter.split('{username}').join(escaped);
  if (!login.includes('@') || settings.appendDomain) return byName;
  return `(|${byName}(${settings.emailAttr}=${escaped}))`;
}

/** The uid a login name stands for with LDAP_APPEND_DOMAIN (`hamlet@example.com` → `hamlet`). */
function uidOf(settings: LdapSettings, login: string): string | null {
  if (!login.includes('@')) return login;
  if (settings.appendDomain && login.toLowerCase().endsWith(`@${settings.appendDomain.toLowerCase()}`)) {
    return login.slice(0, login.lastIndexOf('@'));
  }
  return null;
}

/**
 * The directory entry these credentials open, or null: no such user, more than one match, or a wrong password.
 * An empty password is refused here, before any bind.
 */
export async function ldapAuthenticate(
  directory: Directory,
  settings: LdapSettings,
  login: string,
  password: string,
): Promise<DirectoryEntry | null> {
  if (password === '' || login === '') return null;
  const attributes = entryAttributes(settings);
  if (settings.userDnTemplate && !settings.userSearchBase) {
    const uid = uidOf(settings, login);
    if (uid === null) return null;
    const dn = settings.userDnTemplate.split('{username}').join(escapeDnValue(uid));
    return directory.bindAndRead(settings, dn, password, attributes);
  }
  const lookup = settings.appendDomain ? uidOf(settings, login) : login;
  if (lookup === null) return null;
  const found = await directory.search(settings, searchFilter(settings, lookup), attributes);
  if (found.length !== 1) return null;
  return (await directory.checkPassword(settings, found[0]!.dn, password)) ? found[0]! : null;
}

/** Every person entry under the search base (the sync's view of the directory). */
export function listFilter(settings: LdapSettings): string {
  return settings.userFilter.split('{username}').join('*');
}
