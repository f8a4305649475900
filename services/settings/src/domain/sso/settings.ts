/**
 * The server-wide identity configuration (docs/security.md, "Sign-in with the company's identity"), read once from the
 * environment by sso-config.ts. With nothing configured every field is empty and nothing changes for anyone.
 */

export interface LdapSettings {
  /** `ldap://host:port` or `ldaps://host:port`. */
  url: string;
  /** The service account that searches; empty for an anonymous search (or with a DN template, no search). */
  bindDn: string;
  bindPassword: string;
  userSearchBase: string;
  /** The search filter, `{username}` standing for the escaped login name (default `(uid={username})`). */
  userFilter: string;
  /** Direct bind instead of search-then-bind: a DN with `{username}` (escaped per RFC 4514). */
  userDnTemplate: string;
  emailAttr: string;
  /** The full name's attribute (CONFAB_LDAP_NAME_ATTR, or `full_name` of CONFAB_LDAP_USER_ATTR_MAP). */
  nameAttr: string;
  /** Zulip's AUTH_LDAP_USER_ATTR_MAP `avatar`: the attribute holding the user's photo (e.g. jpegPhoto); '' none. */
  avatarAttr: string;
  /**
   * Zulip's AUTH_LDAP_USER_ATTR_MAP `custom_profile_field__<name>`: the attribute of each custom profile field, by
   * the field's name as Zulip writes it there (lower case, spaces as `_`).
   */
  profileFieldAttrs: Record<string, string>;
  /** An attribute whose value `TRUE` marks a disabled account (besides AD's userAccountControl). */
  deactivatedAttr: string;
  /** Zulip's LDAP_APPEND_DOMAIN: users log in with their uid and their email is uid@domain; '' when the entry has it. */
  appendDomain: string;
  /** How often the sync job runs, in seconds (0: only by the admin command). */
  syncIntervalSeconds: number;
  /** Longest wait for the directory, in ms. */
  timeoutMs: number;
}

export type OidcPreset = 'github' | 'gitlab' | 'google' | 'azuread';

export interface OidcProvider {
  name: string;
  displayName: string;
  /** The issuer whose discovery document gives the endpoints (GitHub, plain OAuth2, has none: its preset endpoints). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  autoSignup: boolean;
  /** One of Zulip's named backends, or null for a generic OpenID Connect provider (`oidc:<name>`). */
  preset: OidcPreset | null;
  /** GitHub's OAuth2 endpoints (its preset; overridable for GitHub Enterprise). */
  oauth2?: { authorizationUrl: string; tokenUrl: string; apiUrl: string } | undefined;
}

export interface SamlIdp {
  name: string;
  displayName: string;
  entityId: string;
  ssoUrl: string;
  /** The IdP's signing certificate, PEM (a bare base64 body, as Zulip's settings take it, is accepted and wrapped). */
  x509cert: string;
  attrEmail: string;
  attrFullName: string;
  autoSignup: boolean;
}

export interface SamlSettings {
  /** The SP entity ID (default: the server's URL). */
  spEntityId: string;
  spKey: string;
  spCert: string;
  idps: SamlIdp[];
}

export interface SsoSettings {
  ldap: LdapSettings | null;
  oidc: OidcProvider[];
  saml: SamlSettings | null;
  /** SCIM bearer tokens by organization subdomain ('' the default organization). */
  scimTokens: Record<string, string>;
}

export const NO_SSO: SsoSettings = { ldap: null, oidc: [], saml: null, scimTokens: {} };

/** http:// identity providers only on this machine (development and tests); anywhere else TLS is required. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host.endsWith('.localhost');
}
