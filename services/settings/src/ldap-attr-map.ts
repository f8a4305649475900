import { ConfigError } from '@confab/config';
import { profileFieldKey } from './domain/sso/ldap-attrs.js';

/**
 * CONFAB_LDAP_USER_ATTR_MAP: Zulip's AUTH_LDAP_USER_ATTR_MAP as a JSON object, `{"<Zulip key>": "<LDAP attribute>"}`.
 * Keys: `full_name` (instead of CONFAB_LDAP_NAME_ATTR), `avatar` (a photo attribute, e.g. `jpegPhoto`),
 * `custom_profile_field__<field name>` (the field's name in lower case, spaces as `_`), and, as Zulip's
 * configurations carry them, `userAccountControl` (always read) and `deactivated` (as CONFAB_LDAP_DEACTIVATED_ATTR).
 */
export interface LdapAttrMap {
  fullName: string | null;
  avatar: string | null;
  deactivated: string | null;
  profileFields: Record<string, string>;
}

const VARIABLE = 'CONFAB_LDAP_USER_ATTR_MAP';
const PROFILE_PREFIX = 'custom_profile_field__';
/** An LDAP attribute description (RFC 4512: a name or an OID, options after `;`). */
const ATTRIBUTE = /^([A-Za-z][A-Za-z0-9-]*|[0-9]+(\.[0-9]+)+)(;[A-Za-z0-9-]+)*$/;

export const NO_ATTR_MAP: LdapAttrMap = { fullName: null, avatar: null, deactivated: null, profileFields: {} };

/** Parses the variable; anything malformed stops the service with the variable's name and what is wrong. */
export function parseLdapAttrMap(text: string): LdapAttrMap {
  if (text.trim() === '') return NO_ATTR_MAP;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([`${VARIABLE}: not valid JSON (${(err as Error).message})`]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError([`${VARIABLE}: must be a JSON object {"<Zulip key>": "<LDAP attribute>"}`]);
  }
  const problems: string[] = [];
  const map: LdapAttrMap = { fullName: null, avatar: null, deactivated: null, profileFields: {} };
  for (const [key, attr] of Object.entries(value)) {
    if (typeof attr !== 'string' || !ATTRIBUTE.test(attr)) {
      problems.push(`${VARIABLE}: ${key}: must be an LDAP attribute name, got ${JSON.stringify(attr)}`);
      continue;
    }
    if (key === 'full_name') map.fullName = attr;
    else if (key === 'avatar') map.avatar = attr;
    else if (key === 'deactivated') map.deactivated = attr;
    else if (key === 'userAccountControl') {
      if (attr.toLowerCase() !== 'useraccountcontrol')
        problems.push(`${VARIABLE}: userAccountControl: only "userAccountControl" (AD's attribute) is read`);
    } else if (key.startsWith(PROFILE_PREFIX) && key.length > PROFILE_PREFIX.length) {
      map.profileFields[profileFieldKey(key.slice(PROFILE_PREFIX.length))] = attr;
    } else {
      problems.push(
        `${VARIABLE}: unknown key "${key}" (known: full_name, avatar, custom_profile_field__<field name>, ` +
          'userAccountControl, deactivated)',
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return map;
}
