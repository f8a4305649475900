import { randomBytes } from 'node:crypto';
import { freePort, type World } from '@confab/devkit';
import {
  cookiesOf,
  loginError,
  startOidcIdp,
  throughIdp,
  useSsoStack,
  type SsoStack,
  type TestIdp,
} from './support/sso';
import { newWorld } from './support/system';

/**
 * OpenID Connect against a real OpenID provider (the oidc-provider package, in a process of its own on 127.0.0.1):
 * the authorization code flow with PKCE, state and nonce, the id_token verified against the provider's JWKS, first
 * sign-in creating the account (auto_signup) and the second finding it, the mobile flow's zulip:// redirect and its
 * key, and the refusals: a bad or replayed state, a state from another browser, a tampered nonce or PKCE challenge, a
 * forged id_token, an unverified email, no account without auto_signup, and the method switched off in PATCH /realm.
 */

const OTP = randomBytes(32).toString('hex');

function decrypt(encrypted: string, otp: string): string {
  let hex = '';
  for (let i = 0; i < encrypted.length; i++) hex += (parseInt(encrypted[i]!, 16) ^ parseInt(otp[i]!, 16)).toString(16);
  return Buffer.from(hex, 'hex').toString('utf8');
}

describe('OpenID Connect sign-in (real OpenID provider)', () => {
  const startStack = useSsoStack();
  let idp: TestIdp;
  let world: World;
  let other: World;
  let stack: SsoStack;

  beforeAll(async () => {
    [world, other] = await Promise.all([newWorld(), newWorld()]);
    // The stack's organization URL is known before the stack starts: the port is chosen first.
    const port = await freePort();
    const realmUrl = `http://${world.realm.string_id}.localhost:${port}`;
    idp = await startOidcIdp({
      clients: ['corp', 'strict'].map((name) => ({
        client_id: `${name}-client`,
        client_secret: `${name}-client-secret-0123456789`,
        redirect_uris: [`${realmUrl}/complete/oidc/${name}/`],
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      })),
      accounts: {
        rosalind: { email: 'rosalind@corp.example', email_verified: true, name: 'Rosalind of Arden' },
        unverified: { email: 'orlando@corp.example', email_verified: false, name: 'Orlando' },
        hamlet: { email: world.user('hamlet').email, email_verified: true, name: 'Hamlet at the IdP' },
        stranger: { email: 'stranger@corp.example', email_verified: true, name: 'Stranger' },
      },
    });
    stack = await startStack(
      {
        CONFAB_OIDC_PROVIDERS: JSON.stringify([
          {
            name: 'corp',
            display_name: 'Corp SSO',
            issuer: idp.issuer,
            client_id: 'corp-client',
            client_secret: 'corp-client-secret-0123456789',
            auto_signup: true,
          },
          {
            name: 'strict',
            display_name: 'Strict SSO',
            issuer: idp.issuer,
            client_id: 'strict-client',
            client_secret: 'strict-client-secret-0123456789',
          },
        ]),
      },
      port,
    );
  }, 300_000);

  afterAll(async () => {
    await idp?.stop();
  });

  /** From the login URL to the provider: the authorization URL and this browser's cookies. */
  async function start(path: string, cookie = '') {
    const answer = await stack.browse(world, path, { cookie });
    expect(answer.status).toBe(302);
    return { authorizationUrl: answer.location, cookie: cookiesOf(answer, cookie) };
  }

  /** A whole browser sign-in as `account`: the final answer of our callback (a redirect). */
  async function signIn(path: string, account: string, tamper?: (url: URL) => void) {
    await idp.nextLogin(account);
    const { authorizationUrl, cookie } = await start(path);
    const url = new URL(authorizationUrl);
    tamper?.(url);
    const callback = await throughIdp(idp.issuer, url.href);
    const answer = await stack.browse(world, callback, { cookie });
    expect(answer.status).toBe(302);
    return { answer, callback, cookie };
  }

  /** The session a login token turns into, at the gateway: its cookies. */
  async function session(location: string): Promise<string> {
    expect(new URL(location).pathname).toMatch(/^\/accounts\/login\/subdomain\//);
    const answer = await stack.browse(world, location);
    expect(answer.status).toBe(302);
    return cookiesOf(answer);
  }

  it('/server_settings lists the providers as Zulip does; the authorization request is PKCE S256 with state and nonce', async () => {
    const settings = await stack.anonymous(world).get('/server_settings');
    expect(settings.body.authentication_methods).toMatchObject({ 'openid connect': true, password: true });
    expect(settings.body.external_authentication_methods).toEqual([
      {
        name: 'oidc:corp',
        display_name: 'Corp SSO',
        display_icon: null,
        login_url: '/accounts/login/social/oidc/corp',
        signup_url: '/accounts/register/social/oidc/corp',
      },
      {
        name: 'oidc:strict',
        display_name: 'Strict SSO',
        display_icon: null,
        login_url: '/accounts/login/social/oidc/strict',
        signup_url: '/accounts/register/social/oidc/strict',
      },
    ]);
    const { authorizationUrl, cookie } = await start('/accounts/login/social/oidc');
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'corp-client',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      redirect_uri: `${stack.realmUrl(world)}/complete/oidc/corp/`,
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)).toMatch(/^[\w-]{43}$/);
    expect(cookie).toMatch(/confab_sso_flow=/);
  });

  it('first sign-in creates the account (auto_signup), the second finds it; both end in a normal session', async () => {
    const first = await signIn('/accounts/login/social/oidc/corp?next=/%23narrow/is/starred', 'rosalind');
    expect(loginError(first.answer.location)).toBeNull();
    const cookie = await session(first.answer.location);
    const me = await stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ full_name: 'Rosalind of Arden', role: 400 });
    const second = await signIn('/accounts/login/social/oidc/corp', 'rosalind');
    const again = await session(second.answer.location);
    const me2 = await stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie: again } });
    expect(me2.body.user_id).toBe(me.body.user_id);
  });

  it('the login token is spent once, and only on its own organization', async () => {
    const { answer } = await signIn('/accounts/login/social/oidc/corp', 'rosalind');
    const elsewhere = await stack.browse(other, new URL(answer.location).pathname);
    expect(loginError(elsewhere.location)).toBe('This sign-in link has expired or was already used.');
    const spent = await stack.browse(world, answer.location);
    expect(loginError(spent.location)).toBe('This sign-in link has expired or was already used.');
  });

  it('the mobile flow ends in zulip://login with the OTP-encrypted key, which works on GET /users/me', async () => {
    const { answer } = await signIn(`/accounts/login/social/oidc/corp?mobile_flow_otp=${OTP}`, 'rosalind');
    const redirect = new URL(answer.location);
    expect(`${redirect.protocol}//${redirect.host}`).toBe('zulip://login');
    expect([...redirect.searchParams.keys()]).toEqual(['realm', 'email', 'otp_encrypted_api_key', 'user_id']);
    expect(redirect.searchParams.get('realm')).toBe(stack.realmUrl(world));
    const apiKey = decrypt(redirect.searchParams.get('otp_encrypted_api_key')!, OTP);
    const me = await stack
      .anonymous(world)
      .withCredentials(redirect.searchParams.get('email')!, apiKey)
      .get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: redirect.searchParams.get('email'),
      user_id: Number(redirect.searchParams.get('user_id')),
    });
    const desktop = await signIn(`/accounts/login/social/oidc/corp?desktop_flow_otp=${OTP}`, 'rosalind');
    expect(desktop.answer.location.startsWith('zulip://login?')).toBe(true);
    const bad = await stack.browse(world, '/accounts/login/social/oidc/corp?mobile_flow_otp=1234');
    expect(loginError(bad.location)).toBe('Invalid OTP');
  });

  it('refuses a bad state, a replayed state and a state from another browser', async () => {
    const bad = await stack.browse(world, '/complete/oidc/corp/?code=abc&state=not-a-state', {});
    expect(loginError(bad.location)).toBe('This sign-in has expired or was already used. Please sign in again.');
    const { callback, cookie } = await signIn('/accounts/login/social/oidc/corp', 'rosalind');
    const replay = await stack.browse(world, callback, { cookie });
    expect(loginError(replay.location)).toBe('This sign-in has expired or was already used. Please sign in again.');
    await idp.nextLogin('rosalind');
    const started = await start('/accounts/login/social/oidc/corp');
    const stolen = await throughIdp(idp.issuer, started.authorizationUrl);
    const otherBrowser = await stack.browse(world, stolen, { cookie: 'confab_sso_flow=someone-elses' });
    expect(loginError(otherBrowser.location)).toBe(
      'This sign-in has expired or was already used. Please sign in again.',
    );
  });

  it('refuses a tampered nonce and a tampered PKCE challenge', async () => {
    const nonce = await signIn('/accounts/login/social/oidc/corp', 'rosalind', (url) =>
      url.searchParams.set('nonce', 'x'.repeat(43)),
    );
    expect(loginError(nonce.answer.location)).toMatch(/^Corp SSO did not confirm who you are: .*"nonce"/);
    const pkce = await signIn('/accounts/login/social/oidc/corp', 'rosalind', (url) =>
      url.searchParams.set('code_challenge', 'y'.repeat(43)),
    );
    expect(loginError(pkce.answer.location)).toMatch(/^Corp SSO did not confirm who you are/);
  });

  it('refuses a forged id_token (signed with a key outside the JWKS)', async () => {
    await idp.forge(true);
    try {
      const { answer } = await signIn('/accounts/login/social/oidc/corp', 'rosalind');
      expect(loginError(answer.location)).toMatch(/^Corp SSO did not confirm who you are: .*signature/i);
    } finally {
      await idp.forge(false);
    }
  });

  it('refuses an email the provider marks unverified', async () => {
    const { answer } = await signIn('/accounts/login/social/oidc/corp', 'unverified');
    expect(loginError(answer.location)).toBe('Corp SSO has not verified the email address orlando@corp.example.');
  });

  it('without auto_signup: no account for a stranger in an invite-only organization; an existing one signs in', async () => {
    const stranger = await signIn('/accounts/login/social/oidc/strict', 'stranger');
    expect(loginError(stranger.answer.location)).toBe(
      'There is no account for stranger@corp.example in this organization. Ask an administrator for an invitation.',
    );
    const hamlet = await signIn('/accounts/login/social/oidc/strict', 'hamlet');
    const cookie = await session(hamlet.answer.location);
    const me = await stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie } });
    expect(me.body.user_id).toBe(world.user('hamlet').id);
  });

  it('PATCH /realm switches OpenID Connect off at once: the start and a flow already under way are refused', async () => {
    const owner = stack.as(world, 'desdemona');
    await idp.nextLogin('rosalind');
    const started = await start('/accounts/login/social/oidc/corp');
    const callback = await throughIdp(idp.issuer, started.authorizationUrl);
    const off = await owner.patch('/realm', {
      authentication_methods: JSON.stringify({ Email: true, 'OpenID Connect': false }),
    });
    expect(off.status).toBe(200);
    const late = await stack.browse(world, callback, { cookie: started.cookie });
    expect(loginError(late.location)).toBe('Signing in with Corp SSO is disabled in this organization.');
    const refused = await stack.browse(world, '/accounts/login/social/oidc/corp');
    expect(loginError(refused.location)).toBe('Signing in with Corp SSO is disabled in this organization.');
    const settings = await stack.anonymous(world).get('/server_settings');
    expect(settings.body.external_authentication_methods).toEqual([]);
    expect(settings.body.authentication_methods['openid connect']).toBe(false);
    const on = await owner.patch('/realm', {
      authentication_methods: JSON.stringify({ Email: true, 'OpenID Connect': true }),
    });
    expect(on.status).toBe(200);
  });

  it('an organization can switch password login off: only the providers remain', async () => {
    const owner = stack.as(world, 'desdemona');
    const off = await owner.patch('/realm', {
      authentication_methods: JSON.stringify({ Email: false, 'OpenID Connect': true }),
    });
    expect(off.status).toBe(200);
    try {
      const settings = await stack.anonymous(world).get('/server_settings');
      expect(settings.body).toMatchObject({ email_auth_enabled: false });
      expect(settings.body.authentication_methods).toMatchObject({
        password: false,
        email: false,
        'openid connect': true,
      });
      const password = await stack
        .anonymous(world)
        .post('/fetch_api_key', { username: world.user('hamlet').email, password: 'confab-dev' });
      expect(password.status).toBe(401);
      expect(password.body.code).toBe('PASSWORD_AUTH_DISABLED');
      const { answer } = await signIn('/accounts/login/social/oidc/corp', 'rosalind');
      expect(loginError(answer.location)).toBeNull();
    } finally {
      await owner.patch('/realm', { authentication_methods: JSON.stringify({ Email: true, 'OpenID Connect': true }) });
    }
  });
});
