import { createServer, type Server } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { freePort, startSlapd, type Slapd, type World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld } from './support/browser';
import { TestSamlIdp } from './support/saml-idp';
import { keyAndCertificate, startOidcIdp, useSsoStack, type TestIdp } from './support/sso';

/**
 * The web client's sign-in page with every identity method configured: the directory's credentials in the password
 * form (LDAP, by uid), and a button per provider (OpenID Connect, SAML) that goes through the provider and ends in the
 * client, signed in. A refused flow comes back to the sign-in page with its reason.
 */

describe('web client: sign in with LDAP, OpenID Connect and SAML', () => {
  const startStack = useSsoStack();
  let browser: Browser;
  let world: World;
  let origin: string;
  let directory: Slapd;
  let oidc: TestIdp;
  let samlServer: Server;

  beforeAll(async () => {
    ({ world, browser } = await browserWorld());
    const port = await freePort();
    origin = `http://${world.realm.string_id}.localhost:${port}`;
    directory = await startSlapd();
    await directory.add(`uid=celia,ou=people,${directory.baseDn}`, {
      objectClass: ['inetOrgPerson'],
      uid: 'celia',
      cn: 'Celia of the Forest',
      sn: 'Celia',
      mail: 'celia@example.com',
      userPassword: 'arden-secret-7',
    });
    oidc = await startOidcIdp({
      clients: [
        {
          client_id: 'web-client',
          client_secret: 'web-client-secret-0123456789',
          redirect_uris: [`${origin}/complete/oidc/corp/`],
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      accounts: { phebe: { email: 'phebe@corp.example', email_verified: true, name: 'Phebe the Shepherdess' } },
    });
    // The SAML IdP's sign-in page: it answers the AuthnRequest with a signed response, posted back by the browser.
    const samlPort = await freePort();
    const saml = new TestSamlIdp(
      `http://localhost:${port}`,
      `${origin}/complete/saml/`,
      `http://127.0.0.1:${samlPort}/sso`,
    );
    samlServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${samlPort}`);
      const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      const inResponseTo = /ID="([^"]+)"/.exec(request)?.[1];
      void saml
        .signedResponse({ email: 'audrey@idp.example', name: 'Audrey the Goatherd', inResponseTo })
        .then((response) => {
          const relay = (url.searchParams.get('RelayState') ?? '').replace(/"/g, '&quot;');
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(
            `<form method="post" action="${saml.acsUrl}"><input type="hidden" name="SAMLResponse" value="${response}">` +
              `<input type="hidden" name="RelayState" value="${relay}"></form><script>document.forms[0].submit()</script>`,
          );
        });
    });
    await new Promise<void>((resolve) => samlServer.listen(samlPort, '127.0.0.1', resolve));
    const sp = keyAndCertificate('confab-sp');
    await startStack(
      {
        CONFAB_LDAP_URL: directory.url,
        CONFAB_LDAP_BIND_DN: directory.adminDn,
        CONFAB_LDAP_BIND_PASSWORD: directory.adminPassword,
        CONFAB_LDAP_USER_SEARCH_BASE: `ou=people,${directory.baseDn}`,
        CONFAB_LDAP_SYNC_INTERVAL_SECONDS: '0',
        CONFAB_OIDC_PROVIDERS: JSON.stringify([
          {
            name: 'corp',
            display_name: 'Corp SSO',
            issuer: oidc.issuer,
            client_id: 'web-client',
            client_secret: 'web-client-secret-0123456789',
            auto_signup: true,
          },
        ]),
        CONFAB_SAML_SP_KEY: sp.key,
        CONFAB_SAML_SP_CERT: sp.cert,
        CONFAB_SAML_IDPS: JSON.stringify([saml.config({ auto_signup: true })]),
      },
      port,
    );
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await oidc?.stop();
    await directory?.stop();
    await new Promise((resolve) => samlServer?.close(resolve));
  });

  async function page() {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    return { context, page: await context.newPage() };
  }

  async function fullName(p: Awaited<ReturnType<typeof page>>['page']): Promise<string> {
    return p.evaluate(async () => {
      const r = await fetch('/json/users/me');
      return ((await r.json()) as { full_name: string }).full_name;
    });
  }

  it('shows a button per provider, and the directory accepts a uid in the password form', async () => {
    const { context, page: p } = await page();
    try {
      await p.goto(`${origin}/`);
      await p.locator('#sso-oidc-corp').waitFor();
      expect(await p.locator('.sso-button').allTextContents()).toEqual([
        'Sign in with Test IdP',
        'Sign in with Corp SSO',
      ]);
      expect(await p.locator('label[for=email]').textContent()).toBe('Email or username');
      await p.fill('#email', 'celia');
      await p.fill('#password', 'arden-secret-7');
      await p.click('#signin');
      await p.waitForSelector('#narrow-title');
      expect(await fullName(p)).toBe('Celia of the Forest');
    } finally {
      await context.close();
    }
  });

  it('OpenID Connect: the button goes through the provider and back into the client, signed in', async () => {
    const { context, page: p } = await page();
    try {
      await oidc.nextLogin('phebe');
      await p.goto(`${origin}/`);
      await p.click('#sso-oidc-corp');
      await p.waitForSelector('#narrow-title');
      expect(new URL(p.url()).origin).toBe(origin);
      expect(await fullName(p)).toBe('Phebe the Shepherdess');
    } finally {
      await context.close();
    }
  });

  it('SAML: the button goes through the IdP and back into the client, signed in', async () => {
    const { context, page: p } = await page();
    try {
      await p.goto(`${origin}/`);
      await p.click('#sso-saml-testidp');
      await p.waitForSelector('#narrow-title');
      expect(await fullName(p)).toBe('Audrey the Goatherd');
    } finally {
      await context.close();
    }
  });

  it('a refused flow comes back to the sign-in page with its reason', async () => {
    const { context, page: p } = await page();
    try {
      await p.goto(`${origin}/complete/oidc/corp/?code=x&state=forged`);
      await p.locator('#signin-error').waitFor();
      expect(await p.locator('#signin-error').textContent()).toBe(
        'This sign-in has expired or was already used. Please sign in again.',
      );
    } finally {
      await context.close();
    }
  });
});
