import { realmSettings } from '../src/store/admin';
import {
  canChangeMethods,
  methodOfProvider,
  methodRows,
  parseMethods,
  passwordLoginEnabled,
  signInWays,
  stillPending,
  switched,
  withoutKey,
} from '../src/auth-methods/methods';
import { applyEvents, applyRegister } from '../src/store/store';
import { deliveryEmail } from '../src/store/personal';

const on = { enabled: true, available: true };
const off = { enabled: false, available: true };

describe("the organization's authentication methods on the settings pages", () => {
  const providers = [
    { name: 'oidc:corp', display_name: 'Corp SSO' },
    { name: 'saml:okta', display_name: 'Okta' },
    { name: 'github', display_name: 'GitHub' },
  ];

  it('reads /register and old-style booleans; anything else is no methods', () => {
    expect(
      parseMethods({ Email: on, JWT: { enabled: false, available: false, unavailable_reason: 'No key' } }),
    ).toEqual({ Email: on, JWT: { enabled: false, available: false, unavailable_reason: 'No key' } });
    expect(parseMethods({ Email: true, LDAP: false })).toEqual({ Email: on, LDAP: off });
    expect(parseMethods(undefined)).toEqual({});
    expect(parseMethods('Email')).toEqual({});
  });

  it("names each provider's method from its /server_settings name", () => {
    expect(['saml:okta', 'oidc:corp', 'github', 'azuread', 'gitlab', 'google'].map(methodOfProvider)).toEqual([
      'SAML',
      'OpenID Connect',
      'GitHub',
      'AzureAD',
      'GitLab',
      'Google',
    ]);
  });

  it('lists every method, password first, with its providers and why one is unavailable', () => {
    const rows = methodRows(
      {
        LDAP: on,
        'OpenID Connect': off,
        Email: on,
        SAML: { enabled: true, available: false, unavailable_reason: 'Not configured' },
      },
      providers,
    );
    expect(rows.map((r) => [r.key, r.label, r.enabled, r.available, r.unavailableReason, r.providers])).toEqual([
      ['Email', 'Email and password', true, true, '', []],
      ['LDAP', 'LDAP / Active Directory (directory username and password)', true, true, '', []],
      ['OpenID Connect', 'OpenID Connect', false, true, '', ['Corp SSO']],
      ['SAML', 'SAML', true, false, 'Not configured', ['Okta']],
    ]);
  });

  it('says how one signs in: the enabled methods, each provider by its display name', () => {
    expect(
      signInWays({ Email: on, 'OpenID Connect': on, SAML: on, GitHub: on, GitLab: off, JWT: off }, providers),
    ).toEqual(['Email and password', 'Corp SSO (OpenID Connect)', 'Okta (SAML)', 'GitHub']);
    // A method the server names no provider for (yet) is named itself; a disabled or unavailable one not at all.
    expect(signInWays({ Email: off, SAML: on, LDAP: { enabled: true, available: false } }, [])).toEqual(['SAML']);
  });

  it('shows the password form only while password sign-in is on', () => {
    expect(passwordLoginEnabled({ Email: on, JWT: on })).toBe(true);
    expect(passwordLoginEnabled({ Email: off, JWT: on })).toBe(false);
    expect(passwordLoginEnabled({})).toBe(false);
  });

  it('sends every method with the one switched, and lets only owners switch them', () => {
    expect(switched({ Email: on, JWT: on, SAML: off }, 'JWT', false)).toEqual({ Email: true, JWT: false, SAML: false });
    expect(switched({ Email: on, SAML: off }, 'SAML', true)).toEqual({ Email: true, SAML: true });
    // A switch whose event has not come back yet counts as done (else turning Email off right after JWT on is refused).
    expect(switched({ Email: on, JWT: off }, 'Email', false, { JWT: true, Gone: true })).toEqual({
      Email: false,
      JWT: true,
    });
    expect([100, 200, 300, 400, 600, undefined].map(canChangeMethods)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('keeps a switch pending until the store shows it, dropping it when refused', () => {
    const pending = { Email: false, JWT: true };
    expect(stillPending(pending, { Email: on, JWT: off })).toBe(pending);
    expect(stillPending(pending, { Email: on, JWT: on })).toEqual({ Email: false });
    expect(stillPending(pending, { Email: off, JWT: on })).toEqual({});
    expect(withoutKey(pending, 'Email')).toEqual({ JWT: true });
  });

  it('follows /register and the realm update_dict events that carry authentication_methods', () => {
    applyRegister({
      queue_id: 'q',
      last_event_id: -1,
      user_id: 1,
      delivery_email: 'me@example.com',
      realm_users: [{ user_id: 1, full_name: 'Me', email: 'user1@x' }],
      realm_authentication_methods: { Email: on, JWT: on },
    });
    expect(deliveryEmail.value).toBe('me@example.com');
    expect(parseMethods(realmSettings.value.realm_authentication_methods)).toEqual({ Email: on, JWT: on });
    applyEvents([
      {
        id: 0,
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { authentication_methods: { Email: off, JWT: on } },
      },
    ]);
    expect(parseMethods(realmSettings.value.realm_authentication_methods)).toEqual({ Email: off, JWT: on });
    expect(passwordLoginEnabled(parseMethods(realmSettings.value.realm_authentication_methods))).toBe(false);
  });
});
