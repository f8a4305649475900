import type { Realm } from '../types.js';
import type { OidcPreset, OidcProvider, SamlIdp, SsoSettings } from './settings.js';

/**
 * The identity methods this server has, as Zulip names them: the realm's `authentication_methods` keys (PATCH
 * /realm), the `/server_settings` flags and the entries of `external_authentication_methods` the apps draw buttons for.
 */

/** Zulip's keys of the realm's authentication_methods. */
export type SsoMethodKey = 'LDAP' | 'SAML' | 'OpenID Connect' | 'GitHub' | 'GitLab' | 'Google' | 'AzureAD';

interface PresetFacts {
  key: SsoMethodKey;
  displayName: string;
  /** The flag of `/server_settings` authentication_methods. */
  flag: string;
  issuer: string;
}

export const PRESETS: Record<OidcPreset, PresetFacts> = {
  github: { key: 'GitHub', displayName: 'GitHub', flag: 'github', issuer: 'https://github.com' },
  gitlab: { key: 'GitLab', displayName: 'GitLab', flag: 'gitlab', issuer: 'https://gitlab.com' },
  google: { key: 'Google', displayName: 'Google', flag: 'google', issuer: 'https://accounts.google.com' },
  azuread: { key: 'AzureAD', displayName: 'Microsoft', flag: 'azuread', issuer: '' },
};

export function isPreset(name: string): name is OidcPreset {
  return Object.prototype.hasOwnProperty.call(PRESETS, name);
}

/** The realm method a provider belongs to. */
export function oidcMethodKey(provider: OidcProvider): SsoMethodKey {
  return provider.preset ? PRESETS[provider.preset].key : 'OpenID Connect';
}

/** The methods configured on this server, in Zulip's order. */
export function configuredMethods(sso: SsoSettings): SsoMethodKey[] {
  const keys = new Set<SsoMethodKey>();
  if (sso.ldap) keys.add('LDAP');
  for (const provider of sso.oidc) keys.add(oidcMethodKey(provider));
  if (sso.saml && sso.saml.idps.length > 0) keys.add('SAML');
  const order: SsoMethodKey[] = ['GitHub', 'GitLab', 'Google', 'LDAP', 'OpenID Connect', 'SAML', 'AzureAD'];
  return order.filter((key) => keys.has(key));
}

/** The realm's switched-off methods (kept in its settings, so that switching one on again needs no configuration). */
function disabledOf(realm: Pick<Realm, 'settings'>): string[] {
  const stored = realm.settings.disabled_auth_methods;
  return Array.isArray(stored) ? stored.filter((v): v is string => typeof v === 'string') : [];
}

/** Whether a configured method is on for this organization (every configured one is, until an owner turns it off). */
export function ssoMethodEnabled(sso: SsoSettings, realm: Pick<Realm, 'settings'>, key: SsoMethodKey): boolean {
  return configuredMethods(sso).includes(key) && !disabledOf(realm).includes(key);
}

/** The realm's stored settings with these methods switched on or off. */
export function withSsoMethods(
  settings: Record<string, unknown>,
  changes: Partial<Record<SsoMethodKey, boolean>>,
): Record<string, unknown> {
  const disabled = new Set(disabledOf({ settings }));
  for (const [key, on] of Object.entries(changes)) {
    if (on) disabled.delete(key);
    else disabled.add(key);
  }
  return { ...settings, disabled_auth_methods: [...disabled].sort() };
}

export interface ExternalMethod {
  name: string;
  display_name: string;
  display_icon: string | null;
  login_url: string;
  signup_url: string;
}

/** Where a provider's flow starts (`/accounts/login/social/...`), as Zulip's `login-social` URLs. */
export function oidcLoginPath(provider: OidcProvider, signup = false): string {
  const base = signup ? '/accounts/register/social' : '/accounts/login/social';
  return provider.preset ? `${base}/${provider.preset}` : `${base}/oidc/${encodeURIComponent(provider.name)}`;
}

/** Where the provider sends the browser back: `/complete/oidc/<name>/`, or Zulip's `/complete/<backend>/`. */
export function oidcCallbackPath(provider: OidcProvider): string {
  return provider.preset ? `/complete/${provider.preset}/` : `/complete/oidc/${encodeURIComponent(provider.name)}/`;
}

export function samlLoginPath(idp: SamlIdp, signup = false): string {
  return `${signup ? '/accounts/register/social' : '/accounts/login/social'}/saml/${encodeURIComponent(idp.name)}`;
}

export const SAML_ACS_PATH = '/complete/saml/';
export const SAML_METADATA_PATH = '/saml/metadata.xml';

/** `external_authentication_methods` of /server_settings: the buttons, for the methods on in this organization. */
export function externalMethods(sso: SsoSettings, realm: Pick<Realm, 'settings'> | null): ExternalMethod[] {
  const on = (key: SsoMethodKey) => (realm ? ssoMethodEnabled(sso, realm, key) : configuredMethods(sso).includes(key));
  const methods: ExternalMethod[] = [];
  if (sso.saml && on('SAML')) {
    for (const idp of sso.saml.idps) {
      methods.push({
        name: `saml:${idp.name}`,
        display_name: idp.displayName,
        display_icon: null,
        login_url: samlLoginPath(idp),
        signup_url: samlLoginPath(idp, true),
      });
    }
  }
  for (const provider of sso.oidc) {
    if (!on(oidcMethodKey(provider))) continue;
    methods.push({
      name: provider.preset ?? `oidc:${provider.name}`,
      display_name: provider.displayName,
      display_icon: null,
      login_url: oidcLoginPath(provider),
      signup_url: oidcLoginPath(provider, true),
    });
  }
  return methods;
}

/** The `/server_settings` authentication_methods flags of the methods this server has (on for the organization). */
export function serverSettingsFlags(sso: SsoSettings, realm: Pick<Realm, 'settings'> | null): Record<string, boolean> {
  const on = (key: SsoMethodKey) => (realm ? ssoMethodEnabled(sso, realm, key) : configuredMethods(sso).includes(key));
  const flags: Record<string, boolean> = { ldap: on('LDAP'), saml: on('SAML'), 'openid connect': on('OpenID Connect') };
  for (const facts of Object.values(PRESETS)) flags[facts.flag] = on(facts.key);
  return flags;
}
