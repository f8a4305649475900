import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, userPage } from './support/browser';

jest.setTimeout(180_000);

/** Search: Zulip's syntax in the search box, the server's highlights, a result opened in its conversation. */
describe('the web client: search', () => {
  let world: World;
  let browser: Browser;
  let origin: string;
  const ids = { walks: 0, nurse: 0, quiet: 0, link: 0 };

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
    const othello = world.as('othello');
    const post = async (name: keyof typeof ids, to: string, topic: string, content: string) => {
      const sent = await othello.post('/messages', { type: 'stream', to, topic, content });
      expect(sent.status).toBe(200);
      ids[name] = sent.body.id as number;
    };
    await post('walks', 'Denmark', 'ghosts', 'The ghost walks at midnight');
    await post('nurse', 'Verona', 'balcony', 'No ghost here, only the nurse');
    await post('quiet', 'Denmark', 'castle', 'All is quiet on the ramparts');
    await post('link', 'Denmark', 'castle', 'A map of Elsinore: https://example.com/elsinore');
    await world.as('hamlet').post('/messages/flags', { messages: JSON.stringify([ids.quiet]), op: 'add', flag: 'starred' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('searches words and operators, shows the server’s highlights, and opens a result in its conversation', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    const results = () =>
      page.locator('.message').evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-id'))).sort((a, b) => a - b));
    const search = async (query: string, expected: number[]) => {
      await page.fill('#search', query);
      await page.press('#search', 'Enter');
      await page.waitForFunction(
        (want) => {
          const got = Array.from(document.querySelectorAll('.message')).map((n) => Number(n.getAttribute('data-id'))).sort((a, b) => a - b);
          return JSON.stringify(got) === JSON.stringify(want) && !document.querySelector('.loading');
        },
        [...expected].sort((a, b) => a - b),
      );
      expect(await results()).toEqual([...expected].sort((a, b) => a - b));
    };
    try {
      await search('ghost', [ids.walks, ids.nurse]);
      expect(await page.textContent('#narrow-title')).toBe('Search results');
      expect(new URL(page.url()).hash).toBe('#narrow/search/ghost');
      expect(await page.textContent(`.message[data-id="${ids.walks}"] .content .highlight`)).toBe('ghost');
      // Results are not marked read by being found.
      expect((await world.as('hamlet').get(`/messages/${ids.nurse}`)).body.message.flags).not.toContain('read');

      const denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
      await search('channel:Denmark ghost', [ids.walks]);
      expect(new URL(page.url()).hash).toBe(`#narrow/channel/${denmark}-Denmark/search/ghost`);
      await search('topic:castle sender:othello@zulip.com', [ids.quiet, ids.link]);
      await search('has:link', [ids.link]);
      await search('is:starred', [ids.quiet]);
      await search('-is:starred channel:Denmark topic:castle', [ids.link]);
      // A topic that matches is highlighted in the result's heading.
      await search('balcony', [ids.nurse]);
      expect(await page.textContent(`.message[data-id="${ids.nurse}"] .where .topic .highlight`)).toBe('balcony');
      await search('nothing-matches-this', []);
      await page.waitForSelector('.empty >> text=No messages match the search.');

      // A reload keeps the search and shows it in the box.
      await search('channel:Denmark ghost', [ids.walks]);
      await page.reload();
      await page.waitForSelector(`.message[data-id="${ids.walks}"] .highlight`);
      expect(await page.inputValue('#search')).toBe('channel:Denmark ghost');

      // Opening a result: its conversation, at the message.
      await page.click(`.message[data-id="${ids.walks}"] a.where`);
      await page.waitForSelector(`.message.target[data-id="${ids.walks}"]`);
      expect(await page.textContent('#narrow-title')).toBe('#Denmark > ghosts');
      expect(await page.locator(`.message[data-id="${ids.walks}"] .highlight`).count()).toBe(0);
      expect(await page.inputValue('#compose-topic')).toBe('ghosts');
    } finally {
      await context.close();
    }
  });
});
