import { join } from 'node:path';
import { eventually, registeredState, SCREENSHOTS, sendToChannel, useBrowserWorld, userPage } from './support/browser';
import { EventTap, waitHandled } from './support/events';
import { system } from './support/system';

jest.setTimeout(240_000);

/** Issue 28, the settings a person changes in week one: muted people, alert words, the API key; others' changes live. */
describe('the web client: settings of week one', () => {
  const env = useBrowserWorld();

  it('mutes someone from their card, hides their messages, and unmutes them in settings', async () => {
    const id = await sendToChannel(env.world, 'othello', 'Verona', 'noise', 'Listen to me');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const muted = async () =>
      ((await registeredState(env.world, 'hamlet', ['muted_users'])).muted_users as { id: number }[]).map((m) => m.id);
    try {
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/noise`);
      const message = page.locator(`.message[data-id="${id}"]`);
      await message.locator('button.sender').click();
      await page.click('.user-card .mute-user');
      await page.waitForSelector('.user-card .mute-user >> text=Unmute');
      await page.keyboard.press('Escape');
      await message.locator('.muted-message').waitFor();
      expect(await muted()).toEqual([env.world.user('othello').id]);
      await message.locator('button.reveal').click();
      await message.locator('.content >> text=Listen to me').waitFor();

      await page.click('#settings-open');
      const row = page.locator(`[data-muted-user="${env.world.user('othello').id}"]`);
      expect(await row.locator('span').textContent()).toBe('Othello, the Moor of Venice');
      await row.locator('button.unmute-user').click();
      await row.waitFor({ state: 'detached' });
      expect(await muted()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('adds and removes alert words; a message with one counts as a mention', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    const tap = await EventTap.open(['alert_words.*']);
    try {
      await page.click('#settings-open');
      await page.fill('#alert-word', 'Tempest');
      await page.click('#alert-word-add');
      await page.waitForSelector('[data-alert-word="Tempest"]');
      expect((await env.world.as('cordelia').get('/users/me/alert_words')).body.alert_words).toEqual(['Tempest']);
      // Another user's send sees the word once messaging has applied the change (cordelia's own requests wait for it).
      const changed = await tap.next(
        (e) => e.type === 'alert_words.changed' && e.payload.user_id === env.world.user('cordelia').id,
      );
      await waitHandled(system().serviceUrls.messaging!, changed.event_id);
      const id = await sendToChannel(env.world, 'othello', 'Verona', 'weather', 'A tempest is coming');
      const flags = (await env.world.as('cordelia').get(`/messages/${id}`)).body.message.flags as string[];
      expect(flags).toContain('has_alert_word');
      await page.fill('#alert-word', 'storm');
      await page.click('#alert-word-add');
      await page.waitForSelector('[data-alert-word="storm"]');
      await page.click('[data-alert-word="Tempest"] button.remove-alert-word');
      await page.waitForSelector('[data-alert-word="Tempest"]', { state: 'detached' });
      expect((await env.world.as('cordelia').get('/users/me/alert_words')).body.alert_words).toEqual(['storm']);
      await page.screenshot({ path: join(SCREENSHOTS, 'settings-week-one.png'), fullPage: true });
    } finally {
      await tap.close();
      await context.close();
    }
  });

  it("shows another person's new name live, in the people list and on their messages' card", async () => {
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'aaron@zulip.com');
    try {
      await a.page.click('[data-view="people"]');
      await a.page.waitForSelector('[data-person="aaron@zulip.com"] .person-name >> text=aaron');
      await b.page.click('#settings-open');
      await b.page.fill('#settings-full-name', 'Aaron the Moor');
      await b.page.click('#settings-save-name');
      await a.page.waitForSelector('[data-person="aaron@zulip.com"] .person-name >> text=Aaron the Moor');
      await a.page.click('[data-person="aaron@zulip.com"] .person-name');
      expect(await a.page.textContent('.user-card #user-card-name')).toBe('Aaron the Moor');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('shows the API key after the password, and regenerates it: the old key stops working, the new one works', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'prospero@zulip.com');
    const prospero = env.world.user('prospero');
    const asKey = (key: string) => env.world.anonymous().withCredentials(prospero.email, key).get('/users/me');
    try {
      await page.click('#settings-open');
      await page.fill('#api-key-password', 'wrong password');
      await page.click('#api-key-show');
      await page.waitForSelector('section[aria-labelledby="api-key-heading"] [role="alert"]');
      await page.fill('#api-key-password', 'confab-dev');
      await page.click('#api-key-show');
      await page.waitForSelector('.api-key');
      expect(await page.textContent('.api-key')).toBe(prospero.apiKey);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('#api-key-regenerate');
      await page.waitForSelector('section[aria-labelledby="api-key-heading"] [role="status"]');
      const fresh = (await page.textContent('.api-key'))!;
      expect(fresh).not.toBe(prospero.apiKey);
      expect((await asKey(prospero.apiKey)).status).toBe(401);
      expect((await asKey(fresh)).status).toBe(200);
      // The browser session goes on with its own sign-in.
      await page.click('[data-view="inbox"]');
      await eventually('the inbox to load', async () => (await page.textContent('#narrow-title')) === 'Inbox');
    } finally {
      await context.close();
    }
  });
});
