import { useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(300_000);

/**
 * Issue 45's scroll budget, as a reader meets it: a long channel scrolled from its oldest message to its newest
 * passes every message by, in order, and the list brings rows into the page a few at a time (its render window's
 * step, render-window.ts) — a move that mounted 60 rows at once was a task over 50 ms in bench/web-scroll.mjs.
 */
describe('the web client: scrolling a long channel', () => {
  const env = useBrowserWorld();
  const TOTAL = 330;

  it('passes every message by in order, mounting at most 20 rows at a time', async () => {
    const { world } = env;
    const ids: number[] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < TOTAL; i = next++) {
        const sent = await world.as(i % 2 ? 'othello' : 'iago').post('/messages', {
          type: 'stream',
          to: 'Verona',
          topic: 'long read',
          content: i % 5 === 0 ? `Message ${i}\n\nwith a second paragraph` : `Message ${i}`,
        });
        if (sent.status !== 200) throw new Error(sent.text);
        ids.push(sent.body.id as number);
      }
    };
    await Promise.all(Array.from({ length: 6 }, lane));
    ids.sort((a, b) => a - b);
    // Read already: the conversation opens at its newest message (not at a first unread).
    expect((await world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);

    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/long%20read`);
      await page.locator('ol.messages .message').first().waitFor();
      // Every message loaded, by scrolling to the top as a reader does (each arrival there asks for older ones).
      const loaded = () => page.$eval('ol.messages', (l) => Number((l as HTMLElement).dataset.loaded));
      while ((await loaded()) < TOTAL) {
        const before = await loaded();
        await page.$eval('ol.messages', (l) => {
          l.scrollTop = 0;
          l.dispatchEvent(new Event('scroll'));
        });
        await page.waitForFunction(
          (n) => Number(document.querySelector<HTMLElement>('ol.messages')!.dataset.loaded) > n,
          before,
        );
      }
      // At most the window's 250 rows are in the page.
      expect(await page.locator('ol.messages .message').count()).toBeLessThanOrEqual(250);

      // From the top to the end, 120 px a frame: the ids that came into sight, and the most rows added at once.
      const pass = await page.$eval(
        'ol.messages',
        (list) =>
          new Promise<{ seen: number[]; most: number; moves: number }>((resolve) => {
            let most = 0;
            let moves = 0;
            const observer = new MutationObserver((records) => {
              const added = records.reduce(
                (n, r) =>
                  n + Array.from(r.addedNodes).filter((x) => (x as Element).classList?.contains('message')).length,
                0,
              );
              if (added > 0) moves += 1;
              most = Math.max(most, added);
            });
            observer.observe(list, { childList: true });
            const seen: number[] = [];
            const look = () => {
              const top = list.getBoundingClientRect();
              for (const m of Array.from(list.querySelectorAll<HTMLElement>('.message'))) {
                const r = m.getBoundingClientRect();
                const id = Number(m.dataset.id);
                if (r.bottom > top.top && r.top < top.bottom && !seen.includes(id)) seen.push(id);
              }
            };
            list.scrollTop = 0;
            const step = () => {
              look();
              const was = list.scrollTop;
              list.scrollTop = was + 120;
              if (list.scrollTop === was) {
                observer.disconnect();
                resolve({ seen, most, moves });
              } else requestAnimationFrame(step);
            };
            requestAnimationFrame(step);
          }),
      );
      // Every message came into sight, oldest first, none skipped; the end is the newest.
      expect(pass.seen).toEqual(ids);
      // The window moved while scrolling (the last 80 came in), never mounting more than its step at once.
      expect(pass.moves).toBeGreaterThanOrEqual(2);
      expect(pass.most).toBeLessThanOrEqual(20);
    } finally {
      await context.close();
    }
  });
});
