import type { World } from '@confab/devkit';
import type { Browser, Page } from 'playwright-core';
import { browserWorld, userPage } from './support/browser';

jest.setTimeout(180_000);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Files: attach button, paste, drag-and-drop, a progress bar, the link in the message, inline images. */
describe('the web client: files', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
  });
  afterAll(async () => {
    await browser?.close();
  });

  const composeText = (page: Page) => page.inputValue('#compose-content');

  it('uploads from the attach button with a progress bar, from a paste and from a drop, and links each file', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      await page.click('[data-stream="Denmark"]');
      await page.fill('#compose-topic', 'maps');
      await page.fill('#compose-content', 'The castle:');

      // Every percentage the progress bar shows is recorded as it changes (an upload on this machine is quick).
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver((records) => {
          for (const r of records) {
            const el = r.target as Element;
            if (el instanceof HTMLLIElement && el.dataset.upload === 'elsinore.png') seen.push(el.dataset.progress ?? '');
            for (const node of Array.from(r.addedNodes)) {
              if (!(node instanceof Element)) continue;
              const item = node.matches('[data-upload="elsinore.png"]') ? node : node.querySelector('[data-upload="elsinore.png"]');
              if (!item) continue;
              seen.push((item as HTMLElement).dataset.progress ?? '');
              if (item.querySelector('progress')) seen.push('bar');
            }
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });
      });
      await page.setInputFiles('#compose-file', { name: 'elsinore.png', mimeType: 'image/png', buffer: PNG });
      await page.waitForFunction(() => (document.querySelector('#compose-content') as HTMLTextAreaElement).value.includes('[elsinore.png]('));
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
      expect(seen[0]).toBe('0');
      expect(seen).toContain('bar');
      expect(seen).toContain('100');
      await page.waitForSelector('[data-upload="elsinore.png"]', { state: 'detached' });
      expect(await composeText(page)).toMatch(/^The castle: \[elsinore\.png\]\(\/user_uploads\/\d+\/[^)]+\/elsinore\.png\) $/);

      // Pasting a file uploads it too.
      await page.focus('#compose-content');
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.items.add(new File(['To be, or not to be'], 'soliloquy.txt', { type: 'text/plain' }));
        document.querySelector('#compose-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
      await page.waitForFunction(() => (document.querySelector('#compose-content') as HTMLTextAreaElement).value.includes('[soliloquy.txt]('));

      // And dropping one on the compose box.
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.items.add(new File(['Yorick'], 'skull.txt', { type: 'text/plain' }));
        const form = document.querySelector('form.compose')!;
        form.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      await page.waitForFunction(() => (document.querySelector('#compose-content') as HTMLTextAreaElement).value.includes('[skull.txt]('));

      // The files are the user's on the server.
      const attachments = (await world.as('hamlet').get('/attachments')).body.attachments as { name: string }[];
      expect(attachments.map((a) => a.name).sort()).toEqual(['elsinore.png', 'skull.txt', 'soliloquy.txt']);
      // A refusal is shown as the server says it.
      await page.route('**/json/user_uploads', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ result: 'error', code: 'BAD_REQUEST', msg: 'File too large' }) }),
      );
      await page.setInputFiles('#compose-file', { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('x') });
      await page.waitForSelector('[data-upload="huge.bin"] [role=alert] >> text=File too large');
      await page.unroute('**/json/user_uploads');
    } finally {
      await context.close();
    }
  });

  it('shows an uploaded image inline to someone else, with a larger view on click', async () => {
    const hamlet = await userPage(browser, origin, 'hamlet@zulip.com');
    const othello = await userPage(browser, origin, 'othello@zulip.com');
    try {
      await othello.page.click('[data-stream="Denmark"]');
      await hamlet.page.click('[data-stream="Denmark"]');
      await hamlet.page.fill('#compose-topic', 'portraits');
      await hamlet.page.setInputFiles('#compose-file', { name: 'father.png', mimeType: 'image/png', buffer: PNG });
      await hamlet.page.waitForFunction(() => (document.querySelector('#compose-content') as HTMLTextAreaElement).value.includes('[father.png]('));
      await hamlet.page.click('#compose-send');

      const image = othello.page.locator('.message .message_inline_image img').last();
      await image.waitFor();
      await othello.page.waitForFunction(() => {
        const imgs = document.querySelectorAll<HTMLImageElement>('.message .message_inline_image img');
        const img = imgs[imgs.length - 1];
        return img?.complete && img.naturalWidth === 1;
      });
      await image.click();
      const large = othello.page.locator('.lightbox img');
      await large.waitFor();
      // The file itself, from this host (the message shows the organization's own uploads unproxied).
      expect(await large.getAttribute('src')).toMatch(/^\/user_uploads\/\d+\/[^/]+\/father\.png$/);
      await othello.page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.lightbox img');
        return img?.complete && img.naturalWidth === 1;
      });
      await othello.page.keyboard.press('Escape');
      await othello.page.waitForSelector('.lightbox', { state: 'detached' });
    } finally {
      await hamlet.context.close();
      await othello.context.close();
    }
  });
});
