/**
 * The organization's authentication methods as the settings pages show them: `realm_authentication_methods` of
 * /register (kept current by the realm `update_dict` events that carry `authentication_methods`), named for people,
 * with the providers of `/server_settings` `external_authentication_methods` (their display names) under the method
 * they belong to. Pure functions: the components (auth-methods.tsx) only draw what these answer.
 */

/** One method of `realm_authentication_methods` (Zulip's `enabled`, `available`, `unavailable_reason`). */
export interface MethodState {
  enabled: boolean;
  available: boolean;
  unavailable_reason?: string;
}

/** An entry of `/server_settings` `external_authentication_methods` (only what is used here). */
export interface ExternalProvider {
  name: string;
  display_name: string;
}

export interface MethodRow {
  /** Zulip's key (`Email`, `LDAP`, `SAML`, `OpenID Connect`, `GitHub`, …). */
  key: string;
  label: string;
  enabled: boolean;
  available: boolean;
  unavailableReason: string;
  /** The display names of this method's providers the server lists (SAML IdPs, OpenID Connect providers). */
  providers: string[];
}

/** What each of Zulip's keys is called on the page. */
const LABELS: Record<string, string> = {
  Email: 'Email and password',
  LDAP: 'LDAP / Active Directory (directory username and password)',
  SAML: 'SAML',
  'OpenID Connect': 'OpenID Connect',
  GitHub: 'GitHub',
  GitLab: 'GitLab',
  Google: 'Google',
  AzureAD: 'Microsoft (Azure AD)',
  JWT: 'JSON Web Token (JWT)',
  Dev: 'Development login',
};

export const methodLabel = (key: string): string => LABELS[key] ?? key;

/** The method an external provider belongs to, from its `/server_settings` name (`saml:<name>`, `oidc:<name>`, `github`…). */
export function methodOfProvider(name: string): string {
  if (name.startsWith('saml:')) return 'SAML';
  if (name.startsWith('oidc:')) return 'OpenID Connect';
  const presets: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', google: 'Google', azuread: 'AzureAD' };
  return presets[name] ?? name;
}

/** The methods of a /register value or event (anything else: none). */
export function parseMethods(value: unknown): Record<string, MethodState> {
  if (!value || typeof value !== 'object') return {};
  const methods: Record<string, MethodState> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    // Older servers answer a plain boolean per method.
    if (typeof raw === 'boolean') methods[key] = { enabled: raw, available: true };
    else if (raw && typeof raw === 'object') {
      const state = raw as Partial<MethodState>;
      methods[key] = {
        enabled: state.enabled === true,
        available: state.available !== false,
        ...(typeof state.unavailable_reason === 'string' ? { unavailable_reason: state.unavailable_reason } : {}),
      };
    }
  }
  return methods;
}

/** Every method, password first, then in the server's order, with its providers' display names. */
export function methodRows(methods: Record<string, MethodState>, providers: readonly ExternalProvider[]): MethodRow[] {
  const keys = Object.keys(methods).sort((a, b) => Number(b === 'Email') - Number(a === 'Email'));
  return keys.map((key) => {
    const state = methods[key];
    return {
      key,
      label: methodLabel(key),
      enabled: state.enabled,
      available: state.available,
      unavailableReason: state.unavailable_reason ?? '',
      providers: providers.filter((p) => methodOfProvider(p.name) === key).map((p) => p.display_name),
    };
  });
}

/**
 * How a person of the organization may sign in, in words: one line per enabled method, and one per provider for a
 * method whose providers the server names (`Corp SSO (OpenID Connect)`).
 */
export function signInWays(methods: Record<string, MethodState>, providers: readonly ExternalProvider[]): string[] {
  const ways: string[] = [];
  for (const row of methodRows(methods, providers)) {
    if (!row.enabled || !row.available) continue;
    if (row.providers.length === 0) ways.push(row.label);
    else for (const name of row.providers) ways.push(name === row.key ? row.label : `${name} (${row.label})`);
  }
  return ways;
}

/** Whether one signs in with a password of this organization (Zulip's `Email`): the "Change password" form is shown then. */
export const passwordLoginEnabled = (methods: Record<string, MethodState>): boolean => methods.Email?.enabled === true;

/**
 * The `authentication_methods` of PATCH /realm for switching one method: every method's state as the page shows it
 * (switches sent whose event has not come yet included: the server refuses a set with none enabled), that one changed.
 */
export function switched(
  methods: Record<string, MethodState>,
  key: string,
  on: boolean,
  pending: Record<string, boolean> = {},
): Record<string, boolean> {
  const wanted = Object.fromEntries(Object.entries(methods).map(([name, state]) => [name, state.enabled]));
  for (const [name, value] of Object.entries(pending)) if (name in wanted) wanted[name] = value;
  wanted[key] = on;
  return wanted;
}

/** The switches sent whose state the store does not show yet (those it shows now are done). */
export function stillPending(
  pending: Record<string, boolean>,
  methods: Record<string, MethodState>,
): Record<string, boolean> {
  const left = Object.entries(pending).filter(([key, on]) => methods[key]?.enabled !== on);
  return left.length === Object.keys(pending).length ? pending : Object.fromEntries(left);
}

export const withoutKey = (pending: Record<string, boolean>, key: string): Record<string, boolean> =>
  Object.fromEntries(Object.entries(pending).filter(([name]) => name !== key));

/** Who may change the methods: organization owners (Zulip's rule; the server answers others "Must be an organization owner"). */
export const ROLE_OWNER = 100;
export const canChangeMethods = (role: number | undefined): boolean => role === ROLE_OWNER;
