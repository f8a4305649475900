import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, eventually, messageAction, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Defects from issue 27: scroll position when older messages load, moving topics, phone width, long topics. */
describe('the web client: defects', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps the reader’s place when older messages load at the top', async () => {
    const othello = world.as('othello');
    const ids: number[] = [];
    for (let i = 0; i < 70; i++)
      ids.push((await othello.post('/messages', { type: 'stream', to: 'Verona', topic: 'chronicle', content: `Entry ${i}` })).body.id as number);
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com', { viewport: { width: 1100, height: 700 } });
    try {
      const verona = (await othello.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
      await page.goto(`${origin}/#narrow/channel/${verona}-Verona/topic/chronicle`);
      await page.waitForSelector(`.message[data-id="${ids[69]}"]`);
      expect(await page.locator('.message').count()).toBe(50);
      const firstShown = ids[20];
      // Where the text of the message at the top is, below the list's top edge.
      const place = () =>
        page.$eval(`.message[data-id="${firstShown}"] .content`, (el) => {
          const list = el.closest('.messages')!;
          return { top: el.getBoundingClientRect().top - list.getBoundingClientRect().top, scrollTop: list.scrollTop };
        });
      // The older page is held back until the place has been measured at the top.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/json\/messages\?/, async (route) => {
        if (route.request().url().includes(`anchor=${firstShown}&`)) await held;
        await route.continue();
      });
      await page.$eval('.messages', (el) => (el.scrollTop = 0));
      const was = await place();
      release();
      await page.waitForSelector(`.message[data-id="${ids[0]}"]`);
      // The text that was at the top is still where the reader left it, not pushed away or jumped to (its avatar and
      // name go, as it now continues the same sender's older messages).
      const now = await place();
      expect(now.scrollTop).toBeGreaterThan(0);
      expect(Math.abs(now.top - was.top)).toBeLessThan(5);
      expect(await page.locator(`.message[data-id="${firstShown}"] button.sender`).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('moves one, later or all messages of a topic, and the old topic leaves others’ lists', async () => {
    const othello = world.as('othello');
    const post = async (content: string) =>
      (await othello.post('/messages', { type: 'stream', to: 'Denmark', topic: 'old watch', content })).body.id as number;
    const ids = [await post('First'), await post('Second'), await post('Third')];
    const denmark = (await othello.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    const iago = await userPage(browser, origin, 'iago@zulip.com');
    const reader = await userPage(browser, origin, 'othello@zulip.com');
    const topicOf = async (id: number) => (await othello.get(`/messages/${id}`)).body.message.subject as string;
    try {
      await reader.page.click('[data-stream="Denmark"]');
      await reader.page.waitForSelector('[data-topic="old watch"]');

      await iago.page.goto(`${origin}/#narrow/channel/${denmark}-Denmark/topic/old.20watch`);
      await iago.page.waitForSelector(`.message[data-id="${ids[2]}"]`);
      // "This and later": the second and third move, the first stays.
      await messageAction(iago.page, ids[1], 'move');
      await iago.page.selectOption(`.message[data-id="${ids[1]}"] .edit-propagate`, 'change_later');
      await iago.page.fill(`.message[data-id="${ids[1]}"] .edit-topic`, 'new watch');
      await iago.page.click(`.message[data-id="${ids[1]}"] .edit-save`);
      await iago.page.waitForSelector(`.message[data-id="${ids[2]}"]`, { state: 'detached' });
      expect(await Promise.all(ids.map(topicOf))).toEqual(['old watch', 'new watch', 'new watch']);
      await reader.page.waitForSelector('[data-topic="new watch"]');
      expect(await reader.page.locator('[data-topic="old watch"]').count()).toBe(1);

      // "All": the rest of the topic follows, and the old topic disappears from the other reader's list.
      await messageAction(iago.page, ids[0], 'move');
      await iago.page.selectOption(`.message[data-id="${ids[0]}"] .edit-propagate`, 'change_all');
      await iago.page.fill(`.message[data-id="${ids[0]}"] .edit-topic`, 'new watch');
      await iago.page.click(`.message[data-id="${ids[0]}"] .edit-save`);
      await reader.page.waitForSelector('[data-topic="old watch"]', { state: 'detached' });
      await eventually('all moved', async () => (await Promise.all(ids.map(topicOf))).every((t) => t === 'new watch'));

      // "Only this one".
      await reader.page.click('[data-topic="new watch"]');
      await reader.page.waitForSelector(`.message[data-id="${ids[2]}"]`);
      await iago.page.goto(`${origin}/#narrow/channel/${denmark}-Denmark/topic/new.20watch`);
      await iago.page.waitForSelector(`.message[data-id="${ids[2]}"]`);
      await messageAction(iago.page, ids[2], 'move');
      await iago.page.fill(`.message[data-id="${ids[2]}"] .edit-topic`, 'third watch');
      await iago.page.click(`.message[data-id="${ids[2]}"] .edit-save`);
      await reader.page.waitForSelector(`.message[data-id="${ids[2]}"]`, { state: 'detached' });
      expect(await Promise.all(ids.map(topicOf))).toEqual(['new watch', 'new watch', 'third watch']);
    } finally {
      await iago.context.close();
      await reader.context.close();
    }
  });

  it('fits a 390 px wide phone, and keeps a long topic’s unread count inside the sidebar', async () => {
    const long = 'A very long topic name that goes on and on about the state of Denmark and the ghost upon the ramparts';
    expect(
      (await world.as('othello').post('/messages', { type: 'stream', to: 'Denmark', topic: long, content: 'Mark me' })).status,
    ).toBe(200);
    const denmark = (await world.as('othello').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    const phone = await userPage(browser, origin, 'prospero@zulip.com', { viewport: { width: 390, height: 780 }, isMobile: true });
    try {
      // Another topic of the channel is open: the long one is listed with its unread count.
      await phone.page.goto(`${origin}/#narrow/channel/${denmark}-Denmark/topic/elsewhere`);
      await phone.page.waitForSelector('#compose-content');
      const layout = await phone.page.evaluate(() => {
        const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          signout: box('#signout').right,
          compose: box('#compose-content').width,
          width: window.innerWidth,
        };
      });
      expect(layout.overflow).toBeLessThanOrEqual(0);
      expect(layout.signout).toBeLessThanOrEqual(layout.width);
      expect(layout.compose).toBeGreaterThan(200);

      // The long topic's badge stays inside the sidebar.
      await phone.page.click('button.menu');
      const topic = phone.page.locator('#sidebar .topic-link', { hasText: 'A very long topic' });
      await topic.locator('.unread').waitFor();
      const [badge, sidebar] = await Promise.all([topic.locator('.unread').boundingBox(), phone.page.locator('#sidebar').boundingBox()]);
      expect(badge!.x + badge!.width).toBeLessThanOrEqual(sidebar!.x + sidebar!.width);
    } finally {
      await phone.context.close();
    }
  });

  it('serves the client compressed and cached, with a favicon, and a signed-out load logs no error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const failed: string[] = [];
    page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    try {
      const assets: { url: string; encoding?: string; cache?: string }[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/assets/')) assets.push({ url: r.url(), encoding: r.headers()['content-encoding'], cache: r.headers()['cache-control'] });
      });
      await page.goto(`${origin}/`);
      await page.waitForSelector('#signin');
      const icon = await page.evaluate(async () => (await fetch('/favicon.ico')).status);
      expect(icon).toBe(200);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const a of assets) {
        expect(a.encoding).toMatch(/^(br|gzip)$/);
        expect(a.cache).toBe('public, max-age=31536000, immutable');
      }
      expect(errors).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says at once when the network drops, and catches up at once when it is back', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      await page.click('[data-stream="Verona"]');
      await page.waitForFunction(() => document.querySelector('.status')?.textContent === 'Connected');
      await context.setOffline(true);
      await page.waitForFunction(() => document.querySelector('.status')?.textContent === 'Reconnecting…', undefined, { timeout: 3000 });
      const sent = await world.as('othello').post('/messages', { type: 'stream', to: 'Verona', topic: 'storm', content: 'While you were away' });
      expect(sent.status).toBe(200);
      await context.setOffline(false);
      await page.waitForSelector(`.message[data-id="${sent.body.id as number}"]`, { timeout: 3000 });
      await page.waitForFunction(() => document.querySelector('.status')?.textContent === 'Connected');
    } finally {
      await context.close();
    }
  });
});
