import { randomBytes } from 'node:crypto';
import { freePort, type World } from '@confab/devkit';
import type { Browser, Page } from 'playwright-core';
import { browserWorld } from './support/browser';
import { startOidcIdp, TestGithub, useSsoStack, type TestIdp } from './support/sso';

/**
 * The web client's sign-in page with the presets configured — GitHub, GitLab, Google and Microsoft (Azure AD) — each
 * pointed at a provider of the test's on 127.0.0.1 (GitLab, Google and Azure AD speak OpenID Connect: the
 * oidc-provider package; GitHub is OAuth2 plus its /user and /user/emails API: support/sso.ts's TestGithub). Each
 * button goes through its provider and ends in the client, signed in. Then the sign-up rules in the browser: an
 * invited person signs in with a provider without auto_signup and lands in the client; a stranger sees the reason on
 * the sign-in page.
 */

jest.setTimeout(120_000);

const tag = randomBytes(4).toString('hex');
const secret = (name: string) => `${name}-client-secret-0123456789`;

describe('web client: sign in with the GitHub, GitLab, Google and Microsoft presets, and invitation-governed sign-up', () => {
  const startStack = useSsoStack();
  let browser: Browser;
  let world: World;
  let origin: string;
  let oidc: TestIdp;
  let github: TestGithub;

  const invited = `olivia-${tag}@corp.example`;
  const stranger = `feste-${tag}@corp.example`;

  beforeAll(async () => {
    ({ world, browser } = await browserWorld());
    const port = await freePort();
    origin = `http://${world.realm.string_id}.localhost:${port}`;
    const callbacks: Record<string, string> = {
      gitlab: `${origin}/complete/gitlab/`,
      google: `${origin}/complete/google/`,
      azuread: `${origin}/complete/azuread/`,
      corp: `${origin}/complete/oidc/corp/`,
    };
    oidc = await startOidcIdp({
      clients: Object.entries(callbacks).map(([name, callback]) => ({
        client_id: `${name}-client`,
        client_secret: secret(name),
        redirect_uris: [callback],
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      })),
      accounts: {
        gitlab: { email: `gitlab-${tag}@corp.example`, email_verified: true, name: 'Gwen of GitLab' },
        google: { email: `google-${tag}@corp.example`, email_verified: true, name: 'Gus of Google' },
        // Azure AD sends no email_verified: the issuer vouches for the address.
        azuread: { email: `azure-${tag}@corp.example`, name: 'Ada of Azure' },
        invited: { email: invited, email_verified: true, name: 'Olivia the Invited' },
        stranger: { email: stranger, email_verified: true, name: 'Feste the Stranger' },
      },
    });
    github = await TestGithub.start(
      { id: 'github-client', secret: secret('github') },
      {
        octo: {
          id: 4242,
          login: `octo-${tag}`,
          name: 'Octavia of GitHub',
          emails: [
            { email: `octo-${tag}@users.noreply.example`, primary: false, verified: false },
            { email: `octo-${tag}@corp.example`, primary: true, verified: true },
          ],
        },
      },
    );
    const preset = (name: string) => ({
      name,
      issuer: oidc.issuer,
      client_id: `${name}-client`,
      client_secret: secret(name),
      auto_signup: true,
    });
    await startStack(
      {
        CONFAB_OIDC_PROVIDERS: JSON.stringify([
          github.config(true),
          preset('gitlab'),
          preset('google'),
          preset('azuread'),
          { ...preset('corp'), display_name: 'Corp SSO', auto_signup: false },
        ]),
      },
      port,
    );
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await oidc?.stop();
    await github?.stop();
  });

  async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      await run(await context.newPage());
    } finally {
      await context.close();
    }
  }

  async function me(page: Page): Promise<{ full_name: string; delivery_email: string; role: number }> {
    return page.evaluate(async () => (await fetch('/json/users/me')).json());
  }

  it('shows a button per preset, with its name, and one for the generic provider', async () => {
    await withPage(async (page) => {
      await page.goto(`${origin}/`);
      await page.locator('#sso-azuread').waitFor();
      expect(await page.locator('.sso-button').allTextContents()).toEqual([
        'Sign in with GitHub',
        'Sign in with GitLab',
        'Sign in with Google',
        'Sign in with Microsoft',
        'Sign in with Corp SSO',
      ]);
    });
  });

  it('GitHub: through its OAuth2 flow and API into the client, with the primary verified address', async () => {
    github.nextLogin('octo');
    await withPage(async (page) => {
      await page.goto(`${origin}/`);
      await page.click('#sso-github');
      await page.waitForSelector('#narrow-title');
      expect(new URL(page.url()).origin).toBe(origin);
      expect(await me(page)).toMatchObject({
        full_name: 'Octavia of GitHub',
        delivery_email: `octo-${tag}@corp.example`,
      });
    });
  });

  it.each([
    ['gitlab', 'Gwen of GitLab', `gitlab-${tag}@corp.example`],
    ['google', 'Gus of Google', `google-${tag}@corp.example`],
    ['azuread', 'Ada of Azure', `azure-${tag}@corp.example`],
  ])('%s: the button goes through the provider and back into the client, signed in', async (name, fullName, email) => {
    await oidc.nextLogin(name);
    await withPage(async (page) => {
      await page.goto(`${origin}/`);
      await page.click(`#sso-${name}`);
      await page.waitForSelector('#narrow-title');
      expect(new URL(page.url()).origin).toBe(origin);
      expect(await me(page)).toMatchObject({ full_name: fullName, delivery_email: email });
    });
  });

  it('without auto_signup: an invited person lands in the client with the invitation’s role; a stranger sees why not', async () => {
    const response = await world
      .as('iago')
      .post('/invites', { invitee_emails: invited, stream_ids: [], invite_as: 300 });
    expect(response.status).toBe(200);
    await oidc.nextLogin('invited');
    await withPage(async (page) => {
      await page.goto(`${origin}/`);
      await page.click('#sso-oidc-corp');
      await page.waitForSelector('#narrow-title');
      expect(await me(page)).toMatchObject({ full_name: 'Olivia the Invited', delivery_email: invited, role: 300 });
    });
    await oidc.nextLogin('stranger');
    await withPage(async (page) => {
      await page.goto(`${origin}/`);
      await page.click('#sso-oidc-corp');
      await page.locator('#signin-error').waitFor();
      expect(await page.locator('#signin-error').textContent()).toBe(
        `There is no account for ${stranger} in this organization. Ask an administrator for an invitation.`,
      );
      expect(await page.locator('#sso-oidc-corp').isVisible()).toBe(true);
    });
  });
});
