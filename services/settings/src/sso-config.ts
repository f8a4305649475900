import { ConfigError, int, z } from '@confab/config';
import { parseLdapAttrMap } from './ldap-attr-map.js';
import { isPreset, PRESETS } from './domain/sso/methods.js';
import { isLoopbackUrl, type OidcProvider, type SamlIdp, type SsoSettings } from './domain/sso/settings.js';

/**
 * The identity configuration of the settings service (docs/security.md), validated once at start: malformed JSON or a
 * missing field stops the process with the variable's name and what is wrong. Nothing set: nothing configured.
 */
export const ssoEnv = {
  CONFAB_LDAP_URL: z
    .union([
      z.literal(''),
      z.string().regex(/^ldaps?:\/\/[^\s/]+\/?$/, 'must be ldap://host:port or ldaps://host:port'),
    ])
    .default(''),
  CONFAB_LDAP_BIND_DN: z.string().default(''),
  CONFAB_LDAP_BIND_PASSWORD: z.string().default(''),
  CONFAB_LDAP_USER_SEARCH_BASE: z.string().default(''),
  CONFAB_LDAP_USER_FILTER: z
    .string()
    .includes('{username}', { message: 'must contain {username}' })
    .default('(uid={username})'),
  CONFAB_LDAP_USER_DN_TEMPLATE: z
    .union([z.literal(''), z.string().includes('{username}', { message: 'must contain {username}' })])
    .default(''),
  CONFAB_LDAP_EMAIL_ATTR: z.string().min(1).default('mail'),
  CONFAB_LDAP_NAME_ATTR: z.string().min(1).default('cn'),
  CONFAB_LDAP_DEACTIVATED_ATTR: z.string().default(''),
  CONFAB_LDAP_APPEND_DOMAIN: z.string().default(''),
  /** Zulip's AUTH_LDAP_USER_ATTR_MAP as JSON (ldap-attr-map.ts): full name, avatar, custom profile fields. */
  CONFAB_LDAP_USER_ATTR_MAP: z.string().default(''),
  /** Seconds between two runs of the directory sync; 0 runs it only by `sync-ldap`. Default 3600. */
  CONFAB_LDAP_SYNC_INTERVAL_SECONDS: int(3600, 0),
  CONFAB_LDAP_TIMEOUT_MS: int(5000, 100),
  CONFAB_OIDC_PROVIDERS: z.string().default(''),
  CONFAB_SAML_SP_ENTITY_ID: z.string().default(''),
  CONFAB_SAML_SP_KEY: z.string().default(''),
  CONFAB_SAML_SP_CERT: z.string().default(''),
  CONFAB_SAML_IDPS: z.string().default(''),
  CONFAB_SCIM_TOKENS: z.string().default(''),
};

type SsoEnv = { [K in keyof typeof ssoEnv]: z.infer<(typeof ssoEnv)[K]> };

const name = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - and _ only');

const oidcProvider = z.object({
  name,
  display_name: z.string().min(1).optional(),
  issuer: z.string().url().optional(),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  auto_signup: z.boolean().default(false),
  /** GitHub (Enterprise): its OAuth2 endpoints. */
  authorization_url: z.string().url().optional(),
  token_url: z.string().url().optional(),
  api_url: z.string().url().optional(),
});

const samlIdp = z.object({
  name,
  display_name: z.string().min(1).optional(),
  entity_id: z.string().min(1),
  sso_url: z.string().url(),
  x509cert: z.string().min(1),
  attr_email: z.string().min(1).default('email'),
  attr_full_name: z.string().min(1).default('name'),
  auto_signup: z.boolean().default(false),
});

function parseJson<T>(variable: string, text: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([`${variable}: not valid JSON (${(err as Error).message})`]);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${variable}: ${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return result.data;
}

/** A certificate as PEM: Zulip's settings take the bare base64 body, which is wrapped here. */
export function pemCertificate(text: string): string {
  const trimmed = text.trim();
  if (trimmed.includes('-----BEGIN')) return trimmed.replace(/\\n/g, '\n');
  const body = trimmed.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${(body.match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
}

function oidcProviders(text: string): OidcProvider[] {
  if (text.trim() === '') return [];
  const list = parseJson('CONFAB_OIDC_PROVIDERS', text, z.array(oidcProvider));
  const seen = new Set<string>();
  return list.map((p, index) => {
    if (seen.has(p.name)) throw new ConfigError([`CONFAB_OIDC_PROVIDERS: ${index}.name: "${p.name}" appears twice`]);
    seen.add(p.name);
    const preset = isPreset(p.name) ? p.name : null;
    const issuer = p.issuer ?? (preset ? PRESETS[preset].issuer : '');
    if (issuer === '') {
      throw new ConfigError([
        `CONFAB_OIDC_PROVIDERS: ${index}.issuer: required for "${p.name}"` +
          (preset === 'azuread' ? ' (https://login.microsoftonline.com/<tenant id>/v2.0)' : ''),
      ]);
    }
    for (const url of [issuer, p.authorization_url, p.token_url, p.api_url]) {
      if (url?.startsWith('http://') && !isLoopbackUrl(url)) {
        throw new ConfigError([
          `CONFAB_OIDC_PROVIDERS: ${index}: ${url} must be https:// (http:// only on this machine)`,
        ]);
      }
    }
    return {
      name: p.name,
      displayName: p.display_name ?? (preset ? PRESETS[preset].displayName : p.name),
      issuer: issuer.replace(/\/+$/, ''),
      clientId: p.client_id,
      clientSecret: p.client_secret,
      autoSignup: p.auto_signup,
      preset,
      oauth2:
        preset === 'github'
          ? {
              authorizationUrl: p.authorization_url ?? 'https://github.com/login/oauth/authorize',
              tokenUrl: p.token_url ?? 'https://github.com/login/oauth/access_token',
              apiUrl: (p.api_url ?? 'https://api.github.com').replace(/\/+$/, ''),
            }
          : undefined,
    };
  });
}

function samlIdps(text: string): SamlIdp[] {
  if (text.trim() === '') return [];
  return parseJson('CONFAB_SAML_IDPS', text, z.array(samlIdp)).map((idp) => ({
    name: idp.name,
    displayName: idp.display_name ?? idp.name,
    entityId: idp.entity_id,
    ssoUrl: idp.sso_url,
    x509cert: pemCertificate(idp.x509cert),
    attrEmail: idp.attr_email,
    attrFullName: idp.attr_full_name,
    autoSignup: idp.auto_signup,
  }));
}

const pem = (text: string) => text.trim().replace(/\\n/g, '\n');

export function ssoSettings(e: SsoEnv, externalUrl: string): SsoSettings {
  const idps = samlIdps(e.CONFAB_SAML_IDPS);
  if (idps.length > 0 && (e.CONFAB_SAML_SP_KEY === '' || e.CONFAB_SAML_SP_CERT === '')) {
    throw new ConfigError([
      'CONFAB_SAML_IDPS is set: CONFAB_SAML_SP_KEY and CONFAB_SAML_SP_CERT (PEM) are required too',
    ]);
  }
  const scimTokens =
    e.CONFAB_SCIM_TOKENS.trim() === ''
      ? {}
      : parseJson(
          'CONFAB_SCIM_TOKENS',
          e.CONFAB_SCIM_TOKENS,
          z.record(z.string(), z.string().min(16, 'a token of at least 16 characters')),
        );
  const attrMap = parseLdapAttrMap(e.CONFAB_LDAP_USER_ATTR_MAP);
  if (attrMap.deactivated && e.CONFAB_LDAP_DEACTIVATED_ATTR && attrMap.deactivated !== e.CONFAB_LDAP_DEACTIVATED_ATTR) {
    throw new ConfigError([
      'CONFAB_LDAP_USER_ATTR_MAP: deactivated: differs from CONFAB_LDAP_DEACTIVATED_ATTR (set one of them)',
    ]);
  }
  return {
    ldap:
      e.CONFAB_LDAP_URL === ''
        ? null
        : {
            url: e.CONFAB_LDAP_URL,
            bindDn: e.CONFAB_LDAP_BIND_DN,
            bindPassword: e.CONFAB_LDAP_BIND_PASSWORD,
            userSearchBase: e.CONFAB_LDAP_USER_SEARCH_BASE,
            userFilter: e.CONFAB_LDAP_USER_FILTER,
            userDnTemplate: e.CONFAB_LDAP_USER_DN_TEMPLATE,
            emailAttr: e.CONFAB_LDAP_EMAIL_ATTR,
            // The map's full_name, as Zulip's AUTH_LDAP_USER_ATTR_MAP, wins over CONFAB_LDAP_NAME_ATTR.
            nameAttr: attrMap.fullName ?? e.CONFAB_LDAP_NAME_ATTR,
            avatarAttr: attrMap.avatar ?? '',
            profileFieldAttrs: attrMap.profileFields,
            deactivatedAttr: e.CONFAB_LDAP_DEACTIVATED_ATTR || (attrMap.deactivated ?? ''),
            appendDomain: e.CONFAB_LDAP_APPEND_DOMAIN,
            syncIntervalSeconds: e.CONFAB_LDAP_SYNC_INTERVAL_SECONDS,
            timeoutMs: e.CONFAB_LDAP_TIMEOUT_MS,
          },
    oidc: oidcProviders(e.CONFAB_OIDC_PROVIDERS),
    saml:
      idps.length === 0
        ? null
        : {
            spEntityId: e.CONFAB_SAML_SP_ENTITY_ID || externalUrl,
            spKey: pem(e.CONFAB_SAML_SP_KEY),
            spCert: pem(e.CONFAB_SAML_SP_CERT),
            idps,
          },
    scimTokens,
  };
}
