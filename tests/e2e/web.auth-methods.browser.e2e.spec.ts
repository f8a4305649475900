import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, registeredState, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/**
 * Issue 42's web client part: the settings page says how one signs in, and lists the organization's authentication
 * methods (the world's organization has password sign-in and a JWT key), which its owner switches off and on while a
 * member's page follows; Zulip's refusal of the last method shows; members and administrators cannot change them.
 */
describe('the web client: how you sign in and the authentication methods', () => {
  const env = useBrowserWorld();

  const openSettings = async (page: Page) => {
    await page.click('#settings-open');
    await page.locator('#sign-in-heading').waitFor();
    await page.locator('#auth-methods-heading').waitFor();
  };
  const ways = (page: Page) => page.locator('.sign-in-ways li').allTextContents();
  const box = (page: Page, name: string) => page.locator('.auth-methods').getByRole('checkbox', { name, exact: true });
  /** What the server says of the methods: /register's realm_authentication_methods and GET /server_settings. */
  const server = async () => {
    const methods = (await registeredState(env.world, 'hamlet', ['realm'])).realm_authentication_methods as Record<
      string,
      { enabled: boolean }
    >;
    const settings = (await env.world.anonymous().get('/server_settings')).body;
    return {
      Email: methods.Email!.enabled,
      JWT: methods.JWT!.enabled,
      password: settings.authentication_methods.password as boolean,
    };
  };

  it('shows a member their email and the ways in, read-only, and passes axe', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await openSettings(page);
      expect(await page.locator('#sign-in-email').textContent()).toBe('hamlet@zulip.com');
      await eventually('the ways in to show', async () => (await ways(page)).length === 2);
      expect(await ways(page)).toEqual(['Email and password', 'JSON Web Token (JWT)']);
      expect(await page.locator('#settings-save-password').isVisible()).toBe(true);

      await page.locator('#auth-methods-readonly >> text=Only organization owners can change these.').waitFor();
      for (const name of ['Email and password', 'JSON Web Token (JWT)']) {
        expect(await box(page, name).isChecked()).toBe(true);
        expect(await box(page, name).isDisabled()).toBe(true);
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("lets the owner switch methods off and on, shows Zulip's refusal, and a member's page follows", async () => {
    const owner = await userPage(env.browser, env.origin, 'desdemona@zulip.com');
    const member = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await openSettings(owner.page);
      await openSettings(member.page);
      const status = owner.page.locator(".auth-methods [role='status']");
      const alert = owner.page.locator(".auth-methods [role='alert']");
      expect(await owner.page.locator('#auth-methods-readonly').count()).toBe(0);
      expect(await box(owner.page, 'JSON Web Token (JWT)').isDisabled()).toBe(false);

      // JWT off, then on again: the server follows each change.
      await box(owner.page, 'JSON Web Token (JWT)').uncheck();
      await status.locator('text=JSON Web Token (JWT): disabled').waitFor();
      expect(await server()).toEqual({ Email: true, JWT: false, password: true });
      await eventually('the member to see JWT go', async () => (await ways(member.page)).length === 1);
      expect(await ways(member.page)).toEqual(['Email and password']);
      expect(await box(member.page, 'JSON Web Token (JWT)').isChecked()).toBe(false);

      // Password sign-in is the last method on: the server refuses, the box stays on.
      await box(owner.page, 'Email and password').click();
      await alert.locator('text=At least one authentication method must be enabled.').waitFor();
      await eventually('the box to stay checked', () => box(owner.page, 'Email and password').isChecked());
      expect(await server()).toEqual({ Email: true, JWT: false, password: true });

      await box(owner.page, 'JSON Web Token (JWT)').check();
      await status.locator('text=JSON Web Token (JWT): enabled').waitFor();
      expect(await server()).toEqual({ Email: true, JWT: true, password: true });

      // Password sign-in off: the member's "Change password" form goes, and comes back when it is on again.
      await box(owner.page, 'Email and password').uncheck();
      await status.locator('text=Email and password: disabled').waitFor();
      expect(await server()).toEqual({ Email: false, JWT: true, password: false });
      await member.page.locator('#sign-in-no-password').waitFor();
      expect(await member.page.locator('#settings-save-password').count()).toBe(0);
      expect(await ways(member.page)).toEqual(['JSON Web Token (JWT)']);

      await box(owner.page, 'Email and password').check();
      await status.locator('text=Email and password: enabled').waitFor();
      expect(await server()).toEqual({ Email: true, JWT: true, password: true });
      await member.page.locator('#settings-save-password').waitFor();
      expect(await member.page.locator('#sign-in-no-password').count()).toBe(0);
      expect(await seriousViolations(owner.page)).toEqual([]);
    } finally {
      await owner.context.close();
      await member.context.close();
    }
  });

  it('shows an administrator who is not an owner the methods read-only', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    try {
      await openSettings(page);
      await page.locator('#auth-methods-readonly').waitFor();
      expect(await box(page, 'JSON Web Token (JWT)').isChecked()).toBe(true);
      expect(await box(page, 'JSON Web Token (JWT)').isDisabled()).toBe(true);
      expect(await box(page, 'Email and password').isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
