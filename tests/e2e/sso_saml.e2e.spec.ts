import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { freePort, type World } from '@confab/devkit';
import { IDP_SSO_URL, samlId, TestSamlIdp, type AssertionSpec } from './support/saml-idp';
import { cookiesOf, keyAndCertificate, loginError, useSsoStack, type SsoStack } from './support/sso';
import { newWorld } from './support/system';

/**
 * SAML 2.0 against an identity provider made in the test with samlify (its keys from openssl, its responses signed by
 * samlify's xml-crypto): SP metadata, SP- and IdP-initiated sign-in (AuthnRequest by HTTP-Redirect, the response by
 * HTTP-POST), the mobile flow, and every refusal: unsigned, a signed response around an unsigned assertion, replayed,
 * wrong audience, wrong issuer, expired, not yet valid, signature wrapping, and the method switched off.
 */

const OTP = randomBytes(32).toString('hex');

describe('SAML 2.0 sign-in (IdP made with samlify)', () => {
  const startStack = useSsoStack();
  let world: World;
  let stack: SsoStack;
  let spEntityId: string;
  let acsUrl: string;
  let idp: TestSamlIdp;
  const spKeys = keyAndCertificate('confab-sp');

  beforeAll(async () => {
    world = await newWorld();
    const port = await freePort();
    spEntityId = `http://localhost:${port}`;
    acsUrl = `http://${world.realm.string_id}.localhost:${port}/complete/saml/`;
    idp = new TestSamlIdp(spEntityId, acsUrl);
    stack = await startStack(
      {
        CONFAB_SAML_SP_KEY: spKeys.key,
        CONFAB_SAML_SP_CERT: spKeys.cert,
        CONFAB_SAML_IDPS: JSON.stringify([idp.config({ auto_signup: true })]),
      },
      port,
    );
  }, 300_000);

  const signedResponse = (a: AssertionSpec, assertionSigned = true) => idp.signedResponse(a, assertionSigned);
  const responseXml = (a: AssertionSpec) => idp.responseXml(a);

  const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

  function post(SAMLResponse: string, RelayState = '') {
    return stack.browse(world, '/complete/saml/', { form: { SAMLResponse, RelayState } });
  }

  async function session(location: string): Promise<string> {
    expect(new URL(location).pathname).toMatch(/^\/accounts\/login\/subdomain\//);
    return cookiesOf(await stack.browse(world, location));
  }

  async function me(cookie: string) {
    return stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie } });
  }

  /** SP-initiated: the AuthnRequest's ID and RelayState from our redirect to the IdP. */
  async function startLogin(query = '') {
    const answer = await stack.browse(world, `/accounts/login/social/saml/testidp${query}`);
    expect(answer.status).toBe(302);
    const url = new URL(answer.location);
    expect(url.origin + url.pathname).toBe(IDP_SSO_URL);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const requestId = /ID="([^"]+)"/.exec(request)![1]!;
    return { request, requestId, relayState: url.searchParams.get('RelayState')!, url };
  }

  it('serves SP metadata and lists the IdP in /server_settings as Zulip does', async () => {
    const metadata = await stack.browse(world, '/saml/metadata.xml');
    expect(metadata.status).toBe(200);
    expect(metadata.text).toContain(`entityID="${spEntityId}"`);
    expect(metadata.text).toContain(`Location="${acsUrl}"`);
    const settings = await stack.anonymous(world).get('/server_settings');
    expect(settings.body.authentication_methods.saml).toBe(true);
    expect(settings.body.external_authentication_methods).toEqual([
      {
        name: 'saml:testidp',
        display_name: 'Test IdP',
        display_icon: null,
        login_url: '/accounts/login/social/saml/testidp',
        signup_url: '/accounts/register/social/saml/testidp',
      },
    ]);
  });

  it('SP-initiated: a signed AuthnRequest by HTTP-Redirect; first sign-in creates the account, the second finds it', async () => {
    const first = await startLogin();
    expect(first.request).toContain(`AssertionConsumerServiceURL="${acsUrl}"`);
    expect(first.url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(first.url.searchParams.get('Signature')).toBeTruthy();
    const response = await signedResponse({
      email: 'viola@idp.example',
      name: 'Viola of Illyria',
      inResponseTo: first.requestId,
    });
    const answer = await post(response, first.relayState);
    expect(loginError(answer.location)).toBeNull();
    const one = await me(await session(answer.location));
    expect(one.body).toMatchObject({ full_name: 'Viola of Illyria', role: 400 });
    const second = await startLogin();
    const again = await post(
      await signedResponse({ email: 'viola@idp.example', inResponseTo: second.requestId }),
      second.relayState,
    );
    expect((await me(await session(again.location))).body.user_id).toBe(one.body.user_id);
  });

  it('IdP-initiated sign-in (no request of ours) lands on the organization of the host', async () => {
    const answer = await post(await signedResponse({ email: world.user('hamlet').email }));
    expect((await me(await session(answer.location))).body.user_id).toBe(world.user('hamlet').id);
  });

  it('the mobile flow ends in zulip://login with a key that works on GET /users/me', async () => {
    const started = await startLogin(`?mobile_flow_otp=${OTP}`);
    const answer = await post(
      await signedResponse({ email: 'viola@idp.example', inResponseTo: started.requestId }),
      started.relayState,
    );
    const redirect = new URL(answer.location);
    expect(answer.location.startsWith('zulip://login?')).toBe(true);
    let hex = '';
    const encrypted = redirect.searchParams.get('otp_encrypted_api_key')!;
    for (let i = 0; i < encrypted.length; i++)
      hex += (parseInt(encrypted[i]!, 16) ^ parseInt(OTP[i]!, 16)).toString(16);
    const key = Buffer.from(hex, 'hex').toString('utf8');
    const user = await stack.anonymous(world).withCredentials('viola@idp.example', key).get('/users/me');
    expect(user.status).toBe(200);
    expect(user.body.user_id).toBe(Number(redirect.searchParams.get('user_id')));
  });

  it('refuses an unsigned response, and a signed response around an unsigned assertion', async () => {
    const unsigned = await post(encode(responseXml({ email: world.user('iago').email })));
    expect(loginError(unsigned.location)).toMatch(/^Test IdP sign-in refused: /);
    const wrapped = await signedResponse({ email: world.user('iago').email }, false);
    expect(decode(wrapped)).toMatch(/<\/saml:Issuer><ds:Signature/);
    const answer = await post(wrapped);
    expect(loginError(answer.location)).toMatch(/^Test IdP sign-in refused: /);
  });

  it('refuses a replayed assertion (its ID used twice)', async () => {
    const response = await signedResponse({ email: world.user('hamlet').email });
    expect(loginError((await post(response)).location)).toBeNull();
    expect(loginError((await post(response)).location)).toBe('This SAML assertion was already used.');
  });

  it('refuses a wrong audience, a wrong issuer, an expired and a not-yet-valid assertion', async () => {
    const email = world.user('hamlet').email;
    const audience = await post(await signedResponse({ email, audience: 'https://evil.example/sp' }));
    expect(loginError(audience.location)).toMatch(/^Test IdP sign-in refused: .*audience/i);
    const issuer = await post(await signedResponse({ email, assertionIssuer: 'https://evil.example/idp' }));
    expect(loginError(issuer.location)).toBe(
      "Test IdP sign-in refused: the assertion's issuer is https://evil.example/idp, not https://idp.test.example/metadata",
    );
    const unknown = await post(await signedResponse({ email, issuer: 'https://evil.example/idp' }));
    expect(loginError(unknown.location)).toBe(
      'This SAML response does not come from an identity provider this server knows.',
    );
    const hour = 3_600_000;
    const expired = await post(
      await signedResponse({
        email,
        notBefore: new Date(Date.now() - 2 * hour),
        notOnOrAfter: new Date(Date.now() - hour),
      }),
    );
    expect(loginError(expired.location)).toMatch(/^Test IdP sign-in refused: .*expired/i);
    const early = await post(await signedResponse({ email, notBefore: new Date(Date.now() + hour) }));
    expect(loginError(early.location)).toMatch(/^Test IdP sign-in refused: .*not yet valid/i);
  });

  it('refuses signature wrapping: an unsigned assertion beside or around the signed one', async () => {
    const signed = decode(await signedResponse({ email: world.user('hamlet').email }));
    const evil = idp.assertionXml({ email: world.user('desdemona').email });
    const beside = signed.replace('<saml:Assertion ', `${evil}<saml:Assertion `);
    const besideAnswer = await post(encode(beside));
    expect(loginError(besideAnswer.location)).toMatch(/^Test IdP sign-in refused: /);
    const signedAssertion = /<saml:Assertion [\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const around = signed.replace(
      signedAssertion,
      evil.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${signedAssertion}</saml:Advice>`),
    );
    const aroundAnswer = await post(encode(around));
    expect(loginError(aroundAnswer.location)).toMatch(/^Test IdP sign-in refused: /);
  });

  it('refuses a response to another sign-in (InResponseTo) and a RelayState used twice', async () => {
    const started = await startLogin();
    const other = await post(
      await signedResponse({ email: world.user('hamlet').email, inResponseTo: samlId() }),
      started.relayState,
    );
    expect(loginError(other.location)).toBe('This SAML response answers another sign-in.');
    const reused = await post(
      await signedResponse({ email: world.user('hamlet').email, inResponseTo: started.requestId }),
      started.relayState,
    );
    expect(loginError(reused.location)).toBe('This sign-in has expired or was already used. Please sign in again.');
  });

  it('auto_signup: a pending invitation still gives its role and is used up; a disposable address is refused', async () => {
    const email = `orsino-${randomBytes(4).toString('hex')}@idp.example`;
    const invited = await world.as('iago').post('/invites', { invitee_emails: email, stream_ids: [], invite_as: 300 });
    expect(invited.status).toBe(200);
    const answer = await post(await signedResponse({ email, name: 'Orsino' }));
    expect(loginError(answer.location)).toBeNull();
    expect((await me(await session(answer.location))).body).toMatchObject({ delivery_email: email, role: 300 });
    const pending = (await world.as('iago').get('/invites')).body.invites as Array<{ email?: string }>;
    expect(pending.map((i) => i.email)).not.toContain(email);
    const throwaway = await post(await signedResponse({ email: 'curio@mailinator.com', name: 'Curio' }));
    expect(loginError(throwaway.location)).toBe('Please use your real email address.');
  });

  it('PATCH /realm switches SAML off at once', async () => {
    const owner = stack.as(world, 'desdemona');
    const off = await owner.patch('/realm', { authentication_methods: JSON.stringify({ Email: true, SAML: false }) });
    expect(off.status).toBe(200);
    try {
      const answer = await post(await signedResponse({ email: world.user('hamlet').email }));
      expect(loginError(answer.location)).toBe('Signing in with Test IdP is disabled in this organization.');
      const start = await stack.browse(world, '/accounts/login/social/saml/testidp');
      expect(loginError(start.location)).toBe('Signing in with Test IdP is disabled in this organization.');
    } finally {
      await owner.patch('/realm', { authentication_methods: JSON.stringify({ Email: true, SAML: true }) });
    }
  });
});
