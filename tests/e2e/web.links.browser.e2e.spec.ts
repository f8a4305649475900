import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, messageAction, signIn, userPage } from './support/browser';

jest.setTimeout(180_000);

/** Links that work: every view has an address in Zulip's link forms; Back, Forward and reload keep the view. */
describe('the web client: links', () => {
  let world: World;
  let browser: Browser;
  let origin: string;
  let denmark: number;
  let verona: number;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
    const hamlet = world.as('hamlet');
    denmark = (await hamlet.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens Zulip links, keeps the view through Back, Forward and reload, and through signing in', async () => {
    const posted = await world
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'v1.2 (beta)', content: 'Something is rotten' });
    expect(posted.status).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    try {
      // A link as Zulip writes it (".2E" for ".", ".28"/".29" for parentheses) survives the sign-in form.
      const topicLink = `#narrow/channel/${denmark}-Denmark/topic/v1.2E2.20.28beta.29`;
      await signIn(page, origin, 'hamlet@zulip.com', `/${topicLink}`);
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Denmark > v1.2 (beta)');
      await page.waitForSelector('.message .content >> text=Something is rotten');
      expect(new URL(page.url()).hash).toBe(topicLink);

      // Following links in the page changes the address; Back and Forward return to each view.
      await page.click('[data-stream="Verona"]');
      expect(await page.textContent('#narrow-title')).toBe('#Verona');
      expect(new URL(page.url()).hash).toBe(`#narrow/channel/${verona}-Verona`);
      await page.click('[data-view="recent"]');
      expect(await page.textContent('#narrow-title')).toBe('Recent conversations');
      expect(new URL(page.url()).hash).toBe('#recent');
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Verona');
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Denmark > v1.2 (beta)');
      await page.goForward();
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Verona');

      // A reload comes back to the same view.
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Verona');
      expect(await page.getAttribute('[data-stream="Verona"]', 'aria-current')).toBe('page');

      // Older link forms: a channel by name, `subject`, `pm-with`.
      await page.goto(`${origin}/#narrow/stream/Denmark/subject/v1.2E2.20.28beta.29`);
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Denmark > v1.2 (beta)');
      await page.goto(`${origin}/#narrow/pm-with/${world.user('othello').id}-othello`);
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === 'Othello, the Moor of Venice');
      await page.goto(`${origin}/#settings`);
      await page.waitForSelector('#settings-full-name');
    } finally {
      await context.close();
    }
  });

  it('copies a link to a message that opens it, marked, for someone else', async () => {
    const hamlet = await userPage(browser, origin, 'hamlet@zulip.com', { permissions: ['clipboard-read', 'clipboard-write'] });
    const iago = await userPage(browser, origin, 'iago@zulip.com');
    try {
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        const sent = await world
          .as('othello')
          .post('/messages', { type: 'stream', to: 'Denmark', topic: 'ramparts', content: `Watch ${i}` });
        ids.push(sent.body.id as number);
      }
      const wanted = ids[3];
      await hamlet.page.goto(`${origin}/#narrow/channel/${denmark}-Denmark/topic/ramparts`);
      await hamlet.page.waitForSelector(`.message[data-id="${wanted}"]`);
      await messageAction(hamlet.page, wanted, 'copy-link');
      const link = await hamlet.page.inputValue(`.message[data-id="${wanted}"] .copied-link`);
      expect(link).toBe(`${origin}/#narrow/channel/${denmark}-Denmark/topic/ramparts/near/${wanted}`);
      expect(await hamlet.page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      // Someone else opens it: the conversation, scrolled to the message, which is marked.
      await iago.page.goto(link);
      await iago.page.waitForSelector(`.message.target[data-id="${wanted}"]`);
      expect(await iago.page.textContent('#narrow-title')).toBe('#Denmark > ramparts');
      const visible = await iago.page.$eval(`.message[data-id="${wanted}"]`, (el) => {
        const box = el.getBoundingClientRect();
        const list = el.closest('.messages')!.getBoundingClientRect();
        return box.top >= list.top && box.bottom <= list.bottom;
      });
      expect(visible).toBe(true);
      // `#narrow/near/<id>` alone (all messages around it) opens it too.
      await iago.page.goto(`${origin}/#narrow/near/${wanted}`);
      await iago.page.waitForSelector(`.message.target[data-id="${wanted}"]`);
    } finally {
      await hamlet.context.close();
      await iago.context.close();
    }
  });
});
