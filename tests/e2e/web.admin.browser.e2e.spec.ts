import { seriousViolations } from './support/axe';
import {
  countOnMemberSettings,
  eventually,
  registeredState,
  sendToChannel,
  useBrowserWorld,
  userPage,
} from './support/browser';

jest.setTimeout(240_000);

/** Issue 32: the administrators' pages on the settings page (organization settings, users, default channels, linkifiers). */
describe('the web client: administration', () => {
  const env = useBrowserWorld();

  it("changes the organization's profile, read receipts and a permission; another administrator sees it live", async () => {
    const a = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const b = await userPage(env.browser, env.origin, 'desdemona@zulip.com');
    try {
      await b.page.click('#settings-open');
      await b.page.locator('#admin-read-receipts').waitFor();
      expect(await b.page.isChecked('#admin-read-receipts')).toBe(false);

      await a.page.click('#settings-open');
      await a.page.locator('.admin-org').waitFor();
      expect(await seriousViolations(a.page)).toEqual([]);
      await a.page.fill('#admin-org-name', 'Elsinore Players');
      await a.page.fill('#admin-org-description', 'The *players* of the court.');
      await a.page.click('#admin-org-save');
      await a.page.waitForSelector('.admin-org >> text=Organization profile saved');
      await a.page.click('#admin-read-receipts');
      await a.page.waitForSelector('.admin-org >> text=Read receipts setting saved');
      await eventually('the read receipts box to show the change', () => a.page.isChecked('#admin-read-receipts'));

      const groups = (await registeredState(env.world, 'iago', ['realm_user_groups'])).realm_user_groups as {
        id: number;
        name: string;
      }[];
      const admins = groups.find((g) => g.name === 'role:administrators')!.id;
      const members = groups.find((g) => g.name === 'role:members')!.id;
      await a.page.selectOption('#admin-can_add_custom_emoji_group', String(admins));
      await a.page.waitForSelector('.admin-org >> text=Who can add custom emoji: saved');
      // Who may invite is for owners only (Zulip's rule): an administrator is told so.
      await a.page.selectOption('#admin-can_invite_users_group', String(admins));
      await a.page.waitForSelector(".admin-org [role='alert'] >> text=Must be an organization owner");

      const realm = await registeredState(env.world, 'hamlet', ['realm']);
      expect({
        name: realm.realm_name,
        description: realm.realm_description,
        receipts: realm.realm_enable_read_receipts,
        emoji: realm.realm_can_add_custom_emoji_group,
        invite: realm.realm_can_invite_users_group,
      }).toEqual({
        name: 'Elsinore Players',
        description: 'The *players* of the court.',
        receipts: true,
        emoji: admins,
        invite: members,
      });
      // The other administrator's page follows the realm events.
      await eventually('the read receipts box to be checked elsewhere', () => b.page.isChecked('#admin-read-receipts'));
      await eventually(
        'the permission to change elsewhere',
        async () => (await b.page.inputValue('#admin-can_add_custom_emoji_group')) === String(admins),
      );
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('changes a role, deactivates and reactivates someone, creates an account', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const othello = env.world.user('othello');
    const user = async (id: number) => (await env.world.as('iago').get(`/users/${id}`)).body.user;
    try {
      await page.click('#settings-open');
      const row = page.locator('[data-admin-user="othello@zulip.com"]');
      await row.waitFor();
      await row.locator('select.admin-role').selectOption('300');
      await page.waitForSelector(".admin-users >> text=Othello, the Moor of Venice's role changed");
      expect((await user(othello.id)).role).toBe(300);

      await row.locator('button.admin-deactivate').click();
      await row.locator('button.admin-reactivate').waitFor();
      expect((await user(othello.id)).is_active).toBe(false);
      await row.locator('button.admin-reactivate').click();
      await row.locator('button.admin-deactivate').waitFor();
      expect((await user(othello.id)).is_active).toBe(true);

      await page.fill('#admin-new-email', 'fortinbras@zulip.com');
      await page.fill('#admin-new-name', 'Fortinbras');
      await page.fill('#admin-new-password', 'Norway-marches-on-Poland-1602');
      await page.click('#admin-new-create');
      await page.waitForSelector('.admin-users >> text=Account created for fortinbras@zulip.com');
      await page.locator('[data-admin-user="fortinbras@zulip.com"]').waitFor();
      const members = (await env.world.as('iago').get('/users')).body.members as { email: string }[];
      expect(members.map((m) => m.email)).toContain('fortinbras@zulip.com');

      // A bad request says Zulip's error.
      await page.fill('#admin-new-email', 'fortinbras@zulip.com');
      await page.fill('#admin-new-name', 'Fortinbras again');
      await page.fill('#admin-new-password', 'Norway-marches-on-Poland-1602');
      await page.click('#admin-new-create');
      await page.waitForSelector(".admin-users [role='alert'] >> text=Email is already in use.");
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('adds and removes a default channel', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const defaults = async () =>
      (await registeredState(env.world, 'iago', ['default_streams'])).realm_default_streams as number[];
    try {
      const scotland = (await env.world.as('iago').get('/get_stream_id', { stream: 'Scotland' })).body
        .stream_id as number;
      expect(await defaults()).not.toContain(scotland);
      await page.click('#settings-open');
      await page.selectOption('#admin-default-choice', String(scotland));
      await page.click('#admin-default-add');
      const item = page.locator('[data-default-channel="Scotland"]');
      await item.waitFor();
      expect(await defaults()).toContain(scotland);
      expect(await seriousViolations(page)).toEqual([]);
      await item.locator('button.admin-default-remove').click();
      await item.waitFor({ state: 'detached' });
      expect(await defaults()).not.toContain(scotland);
    } finally {
      await context.close();
    }
  });

  it('adds a linkifier that new messages use, refuses a bad one, and removes it', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    try {
      await page.click('#settings-open');
      await page.fill('#admin-linkifier-pattern', '#(?P<id>[0-9]+)');
      await page.fill('#admin-linkifier-template', 'https://tracker.example/issues/{id}');
      await page.click('#admin-linkifier-add');
      const item = page.locator('[data-linkifier="#(?P<id>[0-9]+)"]');
      await item.waitFor();
      const id = await sendToChannel(env.world, 'hamlet', 'Verona', 'bugs', 'See #42');
      const rendered = (await env.world.as('hamlet').get(`/messages/${id}`)).body.message.content as string;
      expect(rendered).toContain('href="https://tracker.example/issues/42"');

      await page.fill('#admin-linkifier-pattern', '(');
      await page.fill('#admin-linkifier-template', 'https://tracker.example/');
      await page.click('#admin-linkifier-add');
      await page.waitForSelector(".admin-linkifiers [role='alert'] >> text=Bad regular expression");
      expect(await seriousViolations(page)).toEqual([]);

      await item.locator('button.admin-linkifier-remove').click();
      await item.waitFor({ state: 'detached' });
      expect((await env.world.as('iago').get('/realm/linkifiers')).body.linkifiers).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows no administration to members', async () => {
    expect(await countOnMemberSettings(env.browser, env.origin, '.admin-pages, .admin-org')).toBe(0);
  });
});
