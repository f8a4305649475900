import { ConfigError } from '@confab/config';
import { isValidOtp, otpDecryptApiKey, otpEncryptApiKey, otpRedirectUrl } from '../src/domain/sso/otp';
import { externalMethods, serverSettingsFlags, ssoMethodEnabled, withSsoMethods } from '../src/domain/sso/methods';
import { loadConfig } from '../src/config';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345';
const OTP = '1234567890abcdef'.repeat(4);

describe("Zulip's mobile flow OTP", () => {
  it('XORs the hex of the key with the pad, and the apps undo it', () => {
    const encrypted = otpEncryptApiKey(KEY, OTP);
    expect(encrypted).toMatch(/^[0-9a-f]{64}$/);
    // hex('a') = 61, 61 xor 12 = 73
    expect(encrypted.slice(0, 2)).toBe('73');
    expect(otpDecryptApiKey(encrypted, OTP)).toBe(KEY);
  });

  it('accepts only 64 hex digits', () => {
    expect(isValidOtp(OTP)).toBe(true);
    expect(isValidOtp(OTP.slice(1))).toBe(false);
    expect(isValidOtp(`${OTP.slice(1)}g`)).toBe(false);
    expect(() => otpEncryptApiKey(KEY, 'short')).toThrow('Invalid OTP');
  });

  it('ends in the zulip://login redirect the apps read', () => {
    const url = new URL(
      otpRedirectUrl({ realmUrl: 'https://chat.example.com', email: 'a@b.c', apiKey: KEY, userId: 7, otp: OTP }),
    );
    expect(url.protocol).toBe('zulip:');
    expect(url.host).toBe('login');
    expect([...url.searchParams.keys()]).toEqual(['realm', 'email', 'otp_encrypted_api_key', 'user_id']);
    expect(url.searchParams.get('user_id')).toBe('7');
    expect(otpDecryptApiKey(url.searchParams.get('otp_encrypted_api_key')!, OTP)).toBe(KEY);
  });
});

const BASE = { SETTINGS_DATABASE_URL: 'postgresql://postgres@127.0.0.1/x', NODE_ENV: 'test' };

describe('identity configuration (read once at start)', () => {
  it('with none of the variables, nothing is configured', () => {
    const { sso } = loadConfig(BASE);
    expect(sso).toEqual({ ldap: null, oidc: [], saml: null, scimTokens: {} });
    expect(externalMethods(sso, { settings: {} })).toEqual([]);
    expect(Object.values(serverSettingsFlags(sso, null)).every((v) => v === false)).toBe(true);
  });

  it('refuses malformed JSON and missing fields, naming the variable', () => {
    expect(() => loadConfig({ ...BASE, CONFAB_OIDC_PROVIDERS: '[{' })).toThrow(/CONFAB_OIDC_PROVIDERS: not valid JSON/);
    expect(() => loadConfig({ ...BASE, CONFAB_OIDC_PROVIDERS: '[{"name":"corp"}]' })).toThrow(
      /CONFAB_OIDC_PROVIDERS: 0\.client_id/,
    );
    expect(() => loadConfig({ ...BASE, CONFAB_SCIM_TOKENS: '["x"]' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...BASE, CONFAB_LDAP_URL: 'http://x' })).toThrow(/CONFAB_LDAP_URL/);
    expect(() =>
      loadConfig({
        ...BASE,
        CONFAB_SAML_IDPS: '[{"name":"okta","entity_id":"e","sso_url":"https://idp/sso","x509cert":"MIIB"}]',
      }),
    ).toThrow(/CONFAB_SAML_SP_KEY/);
    expect(() =>
      loadConfig({ ...BASE, CONFAB_OIDC_PROVIDERS: '[{"name":"azuread","client_id":"a","client_secret":"b"}]' }),
    ).toThrow(/tenant/);
  });

  it('presets take their issuer, names and URLs; generic providers are oidc:<name>', () => {
    const { sso } = loadConfig({
      ...BASE,
      CONFAB_OIDC_PROVIDERS: JSON.stringify([
        {
          name: 'corp',
          display_name: 'Corp SSO',
          issuer: 'https://id.corp.example/',
          client_id: 'a',
          client_secret: 'b',
        },
        { name: 'google', client_id: 'a', client_secret: 'b', auto_signup: true },
        { name: 'github', client_id: 'a', client_secret: 'b' },
      ]),
    });
    expect(sso.oidc.map((p) => [p.name, p.issuer, p.preset, p.autoSignup])).toEqual([
      ['corp', 'https://id.corp.example', null, false],
      ['google', 'https://accounts.google.com', 'google', true],
      ['github', 'https://github.com', 'github', false],
    ]);
    expect(externalMethods(sso, { settings: {} }).map((m) => [m.name, m.login_url, m.signup_url])).toEqual([
      ['oidc:corp', '/accounts/login/social/oidc/corp', '/accounts/register/social/oidc/corp'],
      ['google', '/accounts/login/social/google', '/accounts/register/social/google'],
      ['github', '/accounts/login/social/github', '/accounts/register/social/github'],
    ]);
    const off = { settings: withSsoMethods({}, { Google: false }) };
    expect(ssoMethodEnabled(sso, off, 'Google')).toBe(false);
    expect(ssoMethodEnabled(sso, off, 'OpenID Connect')).toBe(true);
    expect(externalMethods(sso, off).map((m) => m.name)).toEqual(['oidc:corp', 'github']);
    expect(serverSettingsFlags(sso, off)).toMatchObject({
      google: false,
      github: true,
      'openid connect': true,
      saml: false,
    });
  });

  it("SAML certificates: PEM, or Zulip's bare base64 wrapped as PEM; the SP entity ID defaults to the server URL", () => {
    const { sso } = loadConfig({
      ...BASE,
      CONFAB_EXTERNAL_URL: 'https://chat.example.com/',
      CONFAB_SAML_SP_KEY: '-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----',
      CONFAB_SAML_SP_CERT: '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----',
      CONFAB_SAML_IDPS: JSON.stringify([
        {
          name: 'okta',
          entity_id: 'http://www.okta.com/x',
          sso_url: 'https://okta.example/sso',
          x509cert: 'QUJD'.repeat(20),
        },
      ]),
    });
    expect(sso.saml?.spEntityId).toBe('https://chat.example.com');
    expect(sso.saml?.spKey).toBe('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----');
    const cert = sso.saml!.idps[0]!.x509cert;
    expect(cert.split('\n')[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(cert.split('\n')[1]).toHaveLength(64);
    expect(sso.saml!.idps[0]).toMatchObject({ attrEmail: 'email', attrFullName: 'name', autoSignup: false });
  });
});
