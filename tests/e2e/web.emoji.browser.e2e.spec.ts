import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, userPage } from './support/browser';

jest.setTimeout(180_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Emoji as emoji: Unicode emoji from the server's code points, custom emoji as images, a picker. */
describe('the web client: emoji', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
    const uploaded = await world.as('iago').post(
      '/realm/emoji/yorick',
      {},
      { files: [{ field: 'f1', filename: 'yorick.png', contentType: 'image/png', data: PNG }] },
    );
    expect(uploaded.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows Unicode and custom emoji in messages and reactions, live', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      await page.click('[data-stream="Denmark"]');
      const othello = world.as('othello');
      const sent = await othello.post('/messages', { type: 'stream', to: 'Denmark', topic: 'feast', content: 'A feast :tada: for :yorick:' });
      expect(sent.status).toBe(200);
      const id = sent.body.id as number;
      await page.waitForSelector(`.message[data-id="${id}"]`);
      expect(await page.textContent(`.message[data-id="${id}"] .content .emoji-1f389`)).toBe('🎉');
      expect(await page.getAttribute(`.message[data-id="${id}"] .content img.emoji`, 'alt')).toBe(':yorick:');
      await page.waitForFunction(
        (mid) => (document.querySelector(`.message[data-id="${mid}"] .content img.emoji`) as HTMLImageElement | null)?.naturalWidth === 1,
        id,
      );

      await othello.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
      await othello.post(`/messages/${id}/reactions`, { emoji_name: 'yorick' });
      await page.waitForSelector(`.message[data-id="${id}"] .reaction[aria-label="octopus: 1"] >> text=🐙 1`);
      await page.waitForSelector(`.message[data-id="${id}"] .reaction[aria-label="yorick: 1"] img.emoji`);
    } finally {
      await context.close();
    }
  });

  it('picks emoji by category or by name, for a message and for a reaction', async () => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com');
    try {
      await page.click('[data-stream="Verona"]');
      await page.fill('#compose-topic', 'menu');
      await page.fill('#compose-content', 'Tonight:');
      await page.click('#compose-emoji');
      const picker = page.locator('form.compose .emoji-picker');
      await picker.waitFor();
      // Custom emoji come first, then the Unicode categories.
      expect(await picker.locator('.emoji-category').first().textContent()).toBe('Custom');
      await picker.locator('[data-emoji="yorick"] img').waitFor();
      await picker.locator('[data-category="Food & drink"]').click();
      expect(await picker.locator('[data-category="Food & drink"]').getAttribute('aria-selected')).toBe('true');
      expect(await picker.locator('[data-emoji="octopus"]').count()).toBe(0);
      await picker.locator('[data-emoji="pizza"]').click();
      expect(await page.inputValue('#compose-content')).toBe('Tonight: :pizza: ');
      await page.click('#compose-emoji');
      await page.fill('form.compose .emoji-search', 'octo');
      await page.click('form.compose [data-emoji="octopus"]');
      expect(await page.inputValue('#compose-content')).toBe('Tonight: :pizza: :octopus: ');
      await page.click('#compose-send');
      const message = page.locator('.message', { hasText: 'Tonight' });
      await message.waitFor();
      expect(await message.locator('.content').textContent()).toBe('Tonight: 🍕 🐙');
      const id = Number(await message.getAttribute('data-id'));

      await page.click(`.message[data-id="${id}"] button.pick-reaction`);
      await page.click(`.message[data-id="${id}"] .emoji-category[data-category="Custom"]`);
      await page.click(`.message[data-id="${id}"] [data-emoji="yorick"]`);
      await page.waitForSelector(`.message[data-id="${id}"] .reaction.mine[aria-label="yorick: 1"] img.emoji`);
      const reactions = (await world.as('cordelia').get(`/messages/${id}`)).body.message.reactions as Record<string, unknown>[];
      expect(reactions.map((r) => [r.emoji_name, r.reaction_type])).toEqual([['yorick', 'realm_emoji']]);
    } finally {
      await context.close();
    }
  });
});
