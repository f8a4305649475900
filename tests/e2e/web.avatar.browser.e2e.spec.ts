import { seriousViolations } from './support/axe';
import { useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Issue 32 (for issue 28): one's profile picture, uploaded on the settings page and shown to others live. */
describe('the web client: profile picture', () => {
  const env = useBrowserWorld();

  it('uploads a picture that the uploader and another person see at once, and removes it again', async () => {
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    const hamlet = env.world.user('hamlet');
    try {
      await b.page.click('[data-view="people"]');
      const row = b.page.locator('[data-person="hamlet@zulip.com"]');
      await row.locator('.avatar.initials').waitFor();

      await a.page.click('#settings-open');
      await a.page
        .locator('#settings-avatar-file')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      await a.page.waitForSelector('.avatar-settings >> text=Picture uploaded');
      await a.page.locator('.avatar-settings img.avatar').waitFor();
      expect(await seriousViolations(a.page)).toEqual([]);

      const url = (await env.world.as('hamlet').get('/users/me')).body.avatar_url as string;
      expect(url).toMatch(new RegExp(`^/user_avatars/${env.world.realm.realm_id}/${hamlet.id}-`));
      expect(await a.page.getAttribute('.avatar-settings img.avatar', 'src')).toBe(url);
      // The other person's list shows the new picture without a reload, and the browser loads it from us.
      const image = row.locator('img.avatar');
      await image.waitFor();
      expect(await image.getAttribute('src')).toBe(url);
      // Stored as Zulip's 100×100 avatar, whatever the upload's size.
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(100);

      await a.page.click('#settings-avatar-delete');
      await a.page.waitForSelector('.avatar-settings >> text=Picture removed');
      await a.page.locator('.avatar-settings .avatar.initials').waitFor();
      await row.locator('.avatar.initials').waitFor();
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it("says what is wrong with a file that is not an image (Zulip's message)", async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'othello@zulip.com');
    try {
      await page.click('#settings-open');
      await page
        .locator('#settings-avatar-file')
        .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
      await page.waitForSelector('.avatar-settings >> text=Could not decode image; did you upload an image file?');
      expect((await env.world.as('othello').get('/users/me')).body.avatar_url).toMatch(/^https:\/\/secure\.gravatar/);
    } finally {
      await context.close();
    }
  });
});
