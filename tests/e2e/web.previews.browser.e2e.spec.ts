import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, sendToChannel, userPage } from './support/browser';
import { expectSuccess } from './support/expect';
import { StubSite } from './support/web-stub';

jest.setTimeout(180_000);

/** A 2×1 PNG (so its natural width tells it apart from a broken image's 0). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC',
  'base64',
);

/**
 * Previews in the web client: an image of another host and a website preview show in the message, loaded from this
 * host through the image proxy, while the page's CSP keeps img-src 'self' (no CSP error in the console).
 */
describe('the web client: link previews and external images', () => {
  let world: World;
  let browser: Browser;
  let origin: string;
  const site = new StubSite();

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
    site
      .serve('/photo.png', 'image/png', PNG)
      .serve('/cover.png', 'image/png', PNG)
      .serve(
        '/article',
        'text/html',
        '<html><head><meta property="og:title" content="Elsinore news"><meta property="og:description" ' +
          'content="The ghost walks again"><meta property="og:image" content="/cover.png"></head></html>',
      );
    await site.start();
    expectSuccess(await world.as('iago').patch('/realm', { inline_url_embed_preview: true }), 'PATCH', '/realm', {
      undocumented: true,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await site.stop();
  });

  it('shows an external image and a website preview, with no CSP error', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    const problems: string[] = [];
    page.on('console', (m) => {
      const text = m.text();
      if (
        /Content Security Policy|Refused to load/i.test(text) ||
        (m.type() === 'error' && /external_content/.test(text))
      )
        problems.push(text);
    });
    // What the browser fetched from the image proxy, as the network saw it (the page's resource-timing buffer holds
    // 250 entries and drops the rest, which a busy page may have used up).
    const proxied = new Set<string>();
    page.on('response', (r) => {
      if (r.url().includes('/external_content/') && r.status() === 200) proxied.add(new URL(r.url()).pathname);
    });
    try {
      await page.click('[data-stream="Verona"]');
      await page.locator('#narrow-title').filter({ hasText: '#Verona' }).waitFor();
      // Iago (who turned previews on) sends; Hamlet's open view gets the message, then its rendering-only update.
      await sendToChannel(world, 'iago', 'Verona', 'news', `${site.url('/photo.png')}\n\nread ${site.url('/article')}`);

      const image = page.locator('.message .message_inline_image img').last();
      await image.waitFor();
      expect(await image.getAttribute('src')).toMatch(/^\/external_content\/[0-9a-f]{40}\/[0-9a-f]+$/);
      await page.waitForFunction(() => {
        const all = document.querySelectorAll<HTMLImageElement>('.message .message_inline_image img');
        const img = all[all.length - 1];
        return img !== undefined && img.complete && img.naturalWidth === 2;
      });

      const embed = page.locator('.message .message_embed').last();
      await embed.waitFor();
      expect(await embed.locator('.message_embed_title').textContent()).toBe('Elsinore news');
      expect(await embed.locator('.message_embed_description').textContent()).toBe('The ghost walks again');
      // The preview's image is a background from the proxy; the browser loads it (a request this host answers).
      const background = await embed
        .locator('.message_embed_image')
        .evaluate((el) => getComputedStyle(el).backgroundImage);
      expect(background).toMatch(/external_content\/[0-9a-f]{40}\/[0-9a-f]+/);
      const coverPath = /url\("?([^")]+)"?\)/.exec(background)![1]!.replace(/^https?:\/\/[^/]+/, '');
      const deadline = Date.now() + 30_000;
      while (!(proxied.has(coverPath) && proxied.has((await image.getAttribute('src'))!))) {
        if (Date.now() > deadline) throw new Error(`the proxy answered only ${[...proxied].join(', ')}`);
        await page.waitForTimeout(50);
      }
      // The update of a preview is no edit.
      expect(await page.locator('.message').last().locator('.edited').count()).toBe(0);
      expect(site.requestsFor('/cover.png')).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
