import { request as httpRequest } from 'node:http';
import { freePort, type World } from '@confab/devkit';
import { TestSamlIdp } from './support/saml-idp';
import { cookiesOf, keyAndCertificate, loginError, rawRequest, useSsoStack, type SsoStack } from './support/sso';
import { newWorld } from './support/system';

/**
 * SCIM 2.0 provisioning (as Okta and Entra ID drive it) with the organization's bearer token: create, read, filter
 * by userName, replace, both PATCH forms of deactivation, delete; a provisioned person then signs in through the
 * organization's SAML IdP (made in the test), and a deactivated one's API key and session stop working.
 */

const TOKEN = 'scim-bearer-token-0123456789abcdef';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe('SCIM 2.0 provisioning', () => {
  const startStack = useSsoStack();
  let world: World;
  let stack: SsoStack;
  let idp: TestSamlIdp;

  beforeAll(async () => {
    world = await newWorld();
    const port = await freePort();
    idp = new TestSamlIdp(
      `http://localhost:${port}`,
      `http://${world.realm.string_id}.localhost:${port}/complete/saml/`,
    );
    const sp = keyAndCertificate('confab-sp');
    stack = await startStack(
      {
        CONFAB_SCIM_TOKENS: JSON.stringify({ [world.realm.string_id]: TOKEN }),
        CONFAB_SAML_SP_KEY: sp.key,
        CONFAB_SAML_SP_CERT: sp.cert,
        CONFAB_SAML_IDPS: JSON.stringify([idp.config()]),
      },
      port,
    );
  }, 300_000);

  async function scim(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
    const headers: Record<string, string> = { host: world.host, 'x-forwarded-for': world.clientAddress };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers['content-type'] = 'application/scim+json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<{ status: number; type: string; body: Record<string, any> }>((resolve, reject) => {
      const req = httpRequest(new URL(`/scim/v2${path}`, stack.gatewayUrl), { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            body: text ? (JSON.parse(text) as Record<string, any>) : {},
          });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A provisioned person signing in through the SAML IdP: their session cookies. */
  async function samlSession(email: string): Promise<{ location: string; cookie: string }> {
    const answer = await stack.browse(world, '/complete/saml/', {
      form: { SAMLResponse: await idp.signedResponse({ email }), RelayState: '' },
    });
    if (loginError(answer.location) !== null) return { location: answer.location, cookie: '' };
    const session = await stack.browse(world, answer.location);
    return { location: answer.location, cookie: cookiesOf(session) };
  }

  const create = (userName: string, formatted: string) =>
    scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName,
      name: { formatted },
      active: true,
      emails: [{ value: userName, primary: true }],
    });

  it('refuses requests without the organization’s bearer token, in SCIM’s error schema', async () => {
    for (const token of [null, 'wrong-token-wrong-token-wrong', `${TOKEN}x`]) {
      const response = await scim('GET', '/Users', undefined, token);
      expect(response.status).toBe(401);
      expect(response.type).toMatch(/^application\/scim\+json/);
      expect(response.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    }
    // Another organization's host with this token: not its token.
    const other = await rawRequest(new URL('/scim/v2/Users', stack.gatewayUrl).href, {
      host: `nosuch.${new URL(stack.externalUrl).host}`,
    });
    expect(other.status).toBe(401);
  });

  it('creates a user (id is the user id), finds it by userName, reads it; a duplicate is a uniqueness error', async () => {
    const made = await create('sebastian@corp.example', 'Sebastian of Messaline');
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      schemas: [USER_SCHEMA],
      userName: 'sebastian@corp.example',
      name: { formatted: 'Sebastian of Messaline' },
      active: true,
    });
    expect(made.body.id).toMatch(/^\d+$/);
    const found = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "sebastian@corp.example"')}`);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: made.body.id }] });
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@corp.example"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    const one = await scim('GET', `/Users/${made.body.id}`);
    expect(one.body.userName).toBe('sebastian@corp.example');
    expect((await scim('GET', '/Users/999999999')).status).toBe(404);
    const duplicate = await create('sebastian@corp.example', 'Again');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'uniqueness' });
    const badFilter = await scim('GET', `/Users?filter=${encodeURIComponent('emails co "x"')}`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.scimType).toBe('invalidFilter');
    // The organization sees the new member.
    const seen = await stack.as(world, 'iago').get(`/users/${made.body.id}`);
    expect(seen.body.user).toMatchObject({ full_name: 'Sebastian of Messaline', is_active: true });
  });

  it('a provisioned person signs in through the IdP (no auto_signup: a stranger is refused)', async () => {
    await create('antonio@corp.example', 'Antonio');
    const { cookie } = await samlSession('antonio@corp.example');
    const me = await stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie } });
    expect(me.body).toMatchObject({ full_name: 'Antonio' });
    const stranger = await samlSession('stranger@corp.example');
    expect(loginError(stranger.location)).toMatch(/^There is no account for stranger@corp.example/);
  });

  it('PATCH renames, PUT replaces', async () => {
    const made = await create('maria@corp.example', 'Maria');
    const renamed = await scim('PATCH', `/Users/${made.body.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Replace', path: 'name.formatted', value: 'Maria the Maid' }],
    });
    expect(renamed.body.name.formatted).toBe('Maria the Maid');
    const replaced = await scim('PUT', `/Users/${made.body.id}`, {
      schemas: [USER_SCHEMA],
      userName: 'maria@corp.example',
      name: { formatted: 'Maria of Olivia’s house' },
      active: true,
    });
    expect(replaced.status).toBe(200);
    const seen = await stack.as(world, 'iago').get(`/users/${made.body.id}`);
    expect(seen.body.user.full_name).toBe('Maria of Olivia’s house');
  });

  // The next request after the deactivation, whichever service serves it: the settings service (GET /users/me) and
  // the messaging service (GET /messages), with the user's API key and with their browser session.
  async function expectLockedOut(email: string, apiKey: string, cookie: string) {
    const client = stack.anonymous(world);
    expect((await client.withCredentials(email, apiKey).get('/users/me')).status).toBe(401);
    expect(
      (await client.withCredentials(email, apiKey).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }))
        .status,
    ).toBe(401);
    expect((await client.get('/json/users/me', {}, { headers: { cookie } })).status).toBe(401);
  }

  for (const [form, operations] of [
    ['RFC 7644 (path "active")', [{ op: 'replace', path: 'active', value: false }]],
    ["Okta's (a value object)", [{ op: 'replace', value: { active: false } }]],
  ] as const) {
    it(`PATCH ${form} deactivates: the user's API key and session stop working on their next request`, async () => {
      const email = `olivia-${form.length}@corp.example`;
      const made = await create(email, 'Olivia');
      const { cookie } = await samlSession(email);
      const login = await stack.anonymous(world).post('/dev_fetch_api_key', { username: email });
      const apiKey =
        login.status === 200
          ? (login.body.api_key as string)
          : await (async () => {
              // Without the development endpoint: the key of the mobile flow.
              const otp = '0'.repeat(64);
              const started = await stack.browse(world, `/accounts/login/social/saml/testidp?mobile_flow_otp=${otp}`);
              const relay = new URL(started.location).searchParams.get('RelayState')!;
              const request = new URL(started.location).searchParams.get('SAMLRequest')!;
              const { inflateRawSync } = await import('node:zlib');
              const id = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(request, 'base64')).toString('utf8'))![1]!;
              const done = await stack.browse(world, '/complete/saml/', {
                form: { SAMLResponse: await idp.signedResponse({ email, inResponseTo: id }), RelayState: relay },
              });
              const encrypted = new URL(done.location).searchParams.get('otp_encrypted_api_key')!;
              return Buffer.from(encrypted, 'hex').toString('utf8');
            })();
      const client = stack.anonymous(world);
      expect((await client.withCredentials(email, apiKey).get('/users/me')).status).toBe(200);
      expect((await client.get('/json/users/me', {}, { headers: { cookie } })).status).toBe(200);
      const off = await scim('PATCH', `/Users/${made.body.id}`, { schemas: [PATCH_SCHEMA], Operations: operations });
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      await expectLockedOut(email, apiKey, cookie);
      const seen = await stack.as(world, 'iago').get(`/users/${made.body.id}`);
      expect(seen.body.user.is_active).toBe(false);
      // And the IdP can no longer sign them in.
      expect(loginError((await samlSession(email)).location)).toBe(`The account ${email} has been deactivated.`);
    });
  }

  it('PATCH active true reactivates; DELETE deactivates (204)', async () => {
    const made = await create('feste@corp.example', 'Feste');
    await scim('PATCH', `/Users/${made.body.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'active', value: 'False' }],
    });
    const back = await scim('PATCH', `/Users/${made.body.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    expect(back.body.active).toBe(true);
    const gone = await scim('DELETE', `/Users/${made.body.id}`);
    expect(gone.status).toBe(204);
    expect((await scim('GET', `/Users/${made.body.id}`)).body.active).toBe(false);
  });
});
