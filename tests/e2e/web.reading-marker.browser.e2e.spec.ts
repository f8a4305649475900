import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 45, the reading layout: the first unread message marked, and a message's actions in a bar and a ⋯ menu. */
describe('the web client: the first unread message and the message actions', () => {
  const env = useBrowserWorld();
  const channelHash = async (channel: string) => {
    const id = (await env.world.as('othello').get('/get_stream_id', { stream: channel })).body.stream_id as number;
    return { id, hash: `#narrow/channel/${id}-${channel}` };
  };
  /** The class of the element just above a message in the list (the divider, a date separator, another message). */
  const above = (page: Page, id: number) =>
    page.$eval(`.message[data-id="${id}"]`, (el) => ({
      kind: el.previousElementSibling?.className ?? '',
      text: el.previousElementSibling?.textContent ?? '',
    }));
  const opacity = (page: Page, id: number) =>
    page.$eval(`.message[data-id="${id}"] button.more`, (el) => getComputedStyle(el).opacity);
  const readFlags = async (ids: number[]) =>
    Promise.all(
      ids.map(async (id) => {
        const flags = (await env.world.as('hamlet').get(`/messages/${id}`)).body.message.flags as string[];
        return flags.includes('read');
      }),
    );

  it('shows "New messages" above the first unread message, keeps it while they are read, and not on coming back', async () => {
    const { id: denmark, hash } = await channelHash('Denmark');
    const hamlet = env.world.as('hamlet');
    const earlier = await sendToChannel(env.world, 'othello', 'Denmark', 'the marker', 'Read already');
    expect((await hamlet.post('/mark_stream_as_read', { stream_id: denmark })).status).toBe(200);
    const first = await sendToChannel(env.world, 'othello', 'Denmark', 'the marker', 'Something is rotten');
    const second = await sendToChannel(env.world, 'othello', 'Denmark', 'the marker', 'in the state');
    const last = await sendToChannel(env.world, 'othello', 'Denmark', 'the marker', 'of Denmark');
    const ids = [first, second, last];
    expect(await readFlags([earlier, ...ids])).toEqual([true, false, false, false]);
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await page.goto(`${env.origin}/${hash}`);
      await page.waitForSelector(`.message[data-id="${last}"]`);
      expect(await above(page, first)).toEqual({ kind: 'unread-divider', text: 'New messages' });
      expect(await page.locator('.unread-divider').count()).toBe(1);
      expect((await above(page, second)).kind).not.toBe('unread-divider');
      // The first unread is in sight.
      const inSight = await page.$eval(`.message[data-id="${first}"]`, (el) => {
        const list = el.closest('.messages')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return box.top >= list.top && box.top < list.bottom;
      });
      expect(inSight).toBe(true);
      // Opening them read them; the divider stays where it was.
      await eventually('the three read', async () => (await readFlags(ids)).every(Boolean));
      expect(await above(page, first)).toEqual({ kind: 'unread-divider', text: 'New messages' });
      expect(await seriousViolations(page)).toEqual([]);
      // Leaving the view and coming back: everything is read, no divider.
      await page.goto(`${env.origin}/#inbox`);
      await page.waitForSelector('.unread-divider', { state: 'detached' });
      await page.goto(`${env.origin}/${hash}`);
      await page.waitForSelector(`.message[data-id="${last}"]`);
      expect(await page.locator('.unread-divider').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows a message’s action bar on hover and focus, and its ⋯ menu works from the keyboard', async () => {
    const { hash } = await channelHash('Denmark');
    const id = await sendToChannel(env.world, 'othello', 'Denmark', 'the menu', 'Words, words, words');
    const other = await sendToChannel(env.world, 'iago', 'Denmark', 'the menu', 'What do you read, my lord?');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await page.goto(`${env.origin}/${hash}`);
      await page.waitForSelector(`.message[data-id="${other}"]`);
      await page.mouse.move(5, 5);
      expect(await opacity(page, id)).toBe('0');
      await page.hover(`.message[data-id="${id}"] .content`);
      expect(await opacity(page, id)).toBe('1');
      expect(await opacity(page, other)).toBe('0');
      // The most-used stay on the bar.
      const bar = await page.$$eval(
        `.message[data-id="${id}"] .actions > button, .message[data-id="${id}"] .actions .more`,
        (els) => els.map((el) => el.getAttribute('aria-label')),
      );
      expect(bar).toEqual(['React with thumbs up', 'Add a reaction', 'Star message', 'More actions']);
      await page.mouse.move(5, 5);
      expect(await opacity(page, id)).toBe('0');

      // The keyboard: focus shows the bar; Enter opens the menu on its first item, arrows move, Escape closes it.
      const more = `.message[data-id="${id}"] button.more`;
      await page.focus(more);
      expect(await opacity(page, id)).toBe('1');
      expect(await page.getAttribute(more, 'aria-haspopup')).toBe('menu');
      expect(await page.getAttribute(more, 'aria-expanded')).toBe('false');
      await page.keyboard.press('Enter');
      const items = page.locator(`.message[data-id="${id}"] [role="menu"] [role="menuitem"]`);
      await items.first().waitFor();
      expect(await items.allTextContents()).toEqual([
        'Copy link to message',
        'Quote and reply',
        'Move message',
        'Mark as unread from here',
      ]);
      expect(await page.getAttribute(more, 'aria-expanded')).toBe('true');
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      expect(await focused()).toBe('Copy link to message');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe('Quote and reply');
      await page.keyboard.press('ArrowUp');
      expect(await focused()).toBe('Copy link to message');
      await page.keyboard.press('ArrowUp');
      expect(await focused()).toBe('Mark as unread from here');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe('Copy link to message');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.waitForSelector(`.message[data-id="${id}"] [role="menu"]`, { state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('More actions');
      expect(await page.getAttribute(more, 'aria-expanded')).toBe('false');
      // The conversation is still open (Escape closed the menu, nothing else).
      expect(page.url()).toContain(hash);

      // An item works: Copy link shows the message's link, which opens the message.
      await page.keyboard.press('ArrowDown');
      await items.first().waitFor();
      expect(await focused()).toBe('Copy link to message');
      await page.keyboard.press('Enter');
      const link = await page.inputValue(`.message[data-id="${id}"] .copied-link`);
      expect(link).toContain(`/near/${id}`);
      expect(await page.locator(`.message[data-id="${id}"] [role="menu"]`).count()).toBe(0);
      await page.goto(link);
      await page.waitForSelector(`.message.target[data-id="${id}"]`);
    } finally {
      await context.close();
    }
  });
});
