import { seriousViolations } from './support/axe';
import { countOnMemberSettings, eventually, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** A 1×1 PNG, the smallest picture an emoji can be. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface CustomField {
  id: number;
  name: string;
  type: number;
  hint: string;
  order: number;
}

/** Issue 32: the administrators' pages for custom emoji and custom profile fields. */
describe('the web client: custom emoji and profile fields', () => {
  const env = useBrowserWorld();

  const emoji = async () =>
    (await env.world.as('hamlet').get('/realm/emoji')).body.emoji as Record<
      string,
      { name: string; deactivated: boolean; author_id: number }
    >;
  const byName = async (name: string) => Object.values(await emoji()).find((e) => e.name === name);
  const fields = async () =>
    ((await env.world.as('hamlet').get('/realm/profile_fields')).body.custom_fields as CustomField[]).sort(
      (a, b) => a.order - b.order,
    );

  it('adds a custom emoji with a name and a picture, says what is wrong with a bad one, and removes it', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    try {
      await page.click('#settings-open');
      await page.locator('.admin-emoji').waitFor();
      await page.fill('#admin-emoji-name', 'yorick');
      await page.setInputFiles('#admin-emoji-file', { name: 'yorick.png', mimeType: 'image/png', buffer: PNG });
      await page.click('#admin-emoji-add');
      await page.waitForSelector('.admin-emoji >> text=:yorick: added');
      // The list follows the realm_emoji event.
      const item = page.locator('[data-custom-emoji="yorick"]');
      await item.waitFor();
      expect(await byName('yorick')).toMatchObject({
        name: 'yorick',
        deactivated: false,
        author_id: env.world.user('iago').id,
      });
      expect(await seriousViolations(page)).toEqual([]);

      // Zulip's errors: a name it refuses, and a name already taken.
      await page.fill('#admin-emoji-name', 'Poor Yorick!');
      await page.setInputFiles('#admin-emoji-file', { name: 'yorick.png', mimeType: 'image/png', buffer: PNG });
      await page.click('#admin-emoji-add');
      await page.waitForSelector(".admin-emoji [role='alert']");
      expect(await page.textContent(".admin-emoji [role='alert']")).toMatch(/^Emoji names must/);
      await page.fill('#admin-emoji-name', 'yorick');
      await page.setInputFiles('#admin-emoji-file', { name: 'yorick.png', mimeType: 'image/png', buffer: PNG });
      await page.click('#admin-emoji-add');
      await page.waitForSelector(".admin-emoji [role='alert'] >> text=A custom emoji with this name already exists.");

      await item.locator('button.admin-emoji-remove').click();
      await item.waitFor({ state: 'detached' });
      expect((await byName('yorick'))?.deactivated).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('creates profile fields with a type and hint, edits one, reorders them and deletes one', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const before = (await fields()).length;
    try {
      await page.click('#settings-open');
      await page.locator('.admin-fields').waitFor();
      await page.fill('#admin-field-new-name', 'Favourite play');
      await page.fill('#admin-field-new-hint', 'Tragedies preferred');
      await page.click('#admin-field-add');
      await page.locator('[data-profile-field="Favourite play"]').waitFor();
      await page.fill('#admin-field-new-name', 'Birthday');
      await page.fill('#admin-field-new-hint', '');
      await page.selectOption('#admin-field-new-type', '4');
      await page.click('#admin-field-add');
      const birthday = page.locator('[data-profile-field="Birthday"]');
      await birthday.waitFor();
      let list = await fields();
      expect(list.slice(before).map((f) => ({ name: f.name, type: f.type, hint: f.hint }))).toEqual([
        { name: 'Favourite play', type: 1, hint: 'Tragedies preferred' },
        { name: 'Birthday', type: 4, hint: '' },
      ]);
      expect(await seriousViolations(page)).toEqual([]);

      // Birthday moves above Favourite play.
      await birthday.locator('button.admin-field-up').click();
      await eventually('the new order to be stored', async () => {
        const names = (await fields()).map((f) => f.name);
        return names.indexOf('Birthday') === names.indexOf('Favourite play') - 1;
      });
      await eventually('the page to show the new order', async () => {
        const shown = await page.locator('.admin-fields li .admin-field-name').allTextContents();
        return shown.indexOf('Birthday') === shown.indexOf('Favourite play') - 1;
      });

      // Edit the name and the hint.
      const play = page.locator('[data-profile-field="Favourite play"]');
      await play.locator('button.admin-field-edit').click();
      const id = (await fields()).find((f) => f.name === 'Favourite play')!.id;
      await page.fill(`#admin-field-name-${id}`, 'Favourite scene');
      await page.fill(`#admin-field-hint-${id}`, 'Act and scene');
      await play.locator('button.admin-field-save').click();
      await page.locator('[data-profile-field="Favourite scene"]').waitFor();
      list = await fields();
      expect(list.find((f) => f.id === id)).toMatchObject({ name: 'Favourite scene', hint: 'Act and scene', type: 1 });

      // A name already taken is refused with Zulip's error.
      await page.fill('#admin-field-new-name', 'Birthday');
      await page.click('#admin-field-add');
      await page.waitForSelector(".admin-fields [role='alert'] >> text=A field with that label already exists.");

      await page.locator('[data-profile-field="Birthday"] button.admin-field-remove').click();
      await page.locator('[data-profile-field="Birthday"]').waitFor({ state: 'detached' });
      expect((await fields()).map((f) => f.name)).not.toContain('Birthday');
    } finally {
      await context.close();
    }
  });

  it('shows neither page to members, and the server refuses them what the pages do', async () => {
    expect(await countOnMemberSettings(env.browser, env.origin, '.admin-emoji, .admin-fields')).toBe(0);
    const hamlet = env.world.as('hamlet');
    const created = await hamlet.post('/realm/profile_fields', { name: 'Sneaky', hint: '', field_type: 1 });
    expect({ status: created.status, msg: created.body.msg }).toEqual({
      status: 400,
      msg: 'Must be an organization administrator',
    });
    const [field] = await fields();
    if (field) {
      const removed = await hamlet.delete(`/realm/profile_fields/${field.id}`);
      expect({ status: removed.status, msg: removed.body.msg }).toEqual({
        status: 400,
        msg: 'Must be an organization administrator',
      });
    }
    // An emoji another person added is not a member's to remove.
    const added = await env.world
      .as('iago')
      .post(
        '/realm/emoji/ophelia',
        {},
        { files: [{ field: 'f', filename: 'o.png', contentType: 'image/png', data: PNG }] },
      );
    expect(added.status).toBe(200);
    const refused = await hamlet.delete('/realm/emoji/ophelia');
    expect({ status: refused.status, msg: refused.body.msg }).toEqual({
      status: 400,
      msg: 'Must be an organization administrator or emoji author',
    });
    expect((await byName('ophelia'))?.deactivated).toBe(false);
  });
});
