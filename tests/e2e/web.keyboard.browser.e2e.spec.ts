import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  eventually,
  registeredState,
  SCREENSHOTS,
  sendToChannel,
  useBrowserWorld,
  userPage,
  waitForTitle,
} from './support/browser';

jest.setTimeout(240_000);

/** Issue 28: Zulip's keyboard shortcuts (key presses only), dark mode (system and setting), the phone layout. */
describe('the web client: keyboard, themes, phone', () => {
  const env = useBrowserWorld();

  const send = (to: string, topic: string, content: string) => sendToChannel(env.world, 'othello', to, topic, content);
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  const selected = (page: Page) =>
    page.evaluate(() => Number(document.querySelector('.message.selected')?.getAttribute('data-id') ?? 0));

  it('does what c, x, r, j, k, n, /, Esc and ? do in Zulip, by key presses alone', async () => {
    expect((await env.world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);
    const keys = [
      await send('Verona', 'keys', 'one'),
      await send('Verona', 'keys', 'two'),
      await send('Verona', 'keys', 'three'),
    ];
    await send('Denmark', 'next', 'the next unread topic');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await waitForTitle(page, 'Inbox');
      await page.keyboard.press('?');
      const help = page.locator('.shortcut-help[role="dialog"]');
      await help.waitFor();
      expect(await help.locator('kbd').allTextContents()).toEqual(['c', 'x', 'r', 'j', 'k', 'n', '/', 'Esc', '?']);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      await page.keyboard.press('/');
      expect(await focused(page)).toBe('search');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      expect(await focused(page)).not.toBe('search');

      // n: the next unread topic, in the sidebar's channel order.
      await page.keyboard.press('n');
      await waitForTitle(page, '#Denmark > next');
      await page.keyboard.press('n');
      await waitForTitle(page, '#Verona > keys');
      await page.waitForSelector(`.message[data-id="${keys[2]}"]`);

      // k and j move the selection; r replies to the selected message.
      await page.keyboard.press('k');
      expect(await selected(page)).toBe(keys[2]);
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      expect(await selected(page)).toBe(keys[0]);
      await page.keyboard.press('j');
      expect(await selected(page)).toBe(keys[1]);
      await page.keyboard.press('r');
      await eventually('the compose box to have focus', async () => (await focused(page)) === 'compose-content');
      await page.keyboard.type('Replied by keyboard');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.message .content >> text=Replied by keyboard');
      const latest = (
        await env.world.as('hamlet').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'topic', operand: 'keys' }]),
        })
      ).body.messages[0];
      expect(latest.content).toBe('<p>Replied by keyboard</p>');

      // Esc leaves the compose box; c starts a new topic in the channel; x starts a direct message.
      await page.keyboard.press('Escape');
      expect(await focused(page)).not.toBe('compose-content');
      await page.keyboard.press('c');
      await waitForTitle(page, '#Verona');
      await eventually('the topic field to have focus', async () => (await focused(page)) === 'compose-topic');
      await page.keyboard.press('Escape');
      await page.keyboard.press('x');
      await waitForTitle(page, 'People');
      await eventually('the people search to have focus', async () => (await focused(page)) === 'people-search');
    } finally {
      await context.close();
    }
  });

  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const DARK = 'rgb(18, 20, 23)';
  const LIGHT = 'rgb(247, 247, 248)';

  it('follows the system into dark mode unless the setting says otherwise; another window follows the setting', async () => {
    await send('Verona', 'night', 'It is the east, and Juliet is the sun');
    const a = await userPage(env.browser, env.origin, 'cordelia@zulip.com', { colorScheme: 'dark' });
    const b = await userPage(env.browser, env.origin, 'cordelia@zulip.com', { colorScheme: 'light' });
    try {
      expect(await background(a.page)).toBe(DARK);
      expect(await background(b.page)).toBe(LIGHT);
      await a.page.goto(`${env.origin}/#narrow/channel/Verona/topic/night`);
      await a.page.waitForSelector('.message');
      await a.page.screenshot({ path: join(SCREENSHOTS, 'dark-channel.png') });
      await a.page.goto(`${env.origin}/#inbox`);
      await a.page.waitForSelector('.inbox');
      await a.page.screenshot({ path: join(SCREENSHOTS, 'dark-inbox.png') });

      // The setting: dark everywhere, whatever the system says.
      await b.page.click('#settings-open');
      await b.page.check('input[name="color_scheme"][value="2"]');
      await eventually('the light window to turn dark', async () => (await background(b.page)) === DARK);
      await eventually('the server to have the dark setting', async () => {
        const state = await registeredState(env.world, 'cordelia', ['user_settings']);
        return state.user_settings.color_scheme === 2;
      });
      await b.page.check('input[name="color_scheme"][value="3"]');
      await eventually('the dark-system window to turn light', async () => (await background(a.page)) === LIGHT);
      await b.page.check('input[name="color_scheme"][value="1"]');
      await eventually('the system to decide again', async () => (await background(a.page)) === DARK);
      expect(await background(b.page)).toBe(LIGHT);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('fits a 390 px phone without sideways scrolling, on every view', async () => {
    await send(
      'Verona',
      'a rather long topic name that goes on and on past the edge of a phone',
      'Words, words, words',
    );
    const { context, page } = await userPage(env.browser, env.origin, 'prospero@zulip.com', {
      viewport: { width: 390, height: 844 },
    });
    try {
      const overflow = () =>
        page.evaluate(
          () => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
        );
      for (const [hash, rendered] of <[string, string][]>[
        ['#inbox', '.inbox'],
        ['#narrow/channel/Verona', '.message'],
        ['#people', '.people-list li'],
        ['#settings', '.settings-page'],
        ['#channels', '.channels-page'],
        ['#recent', '.recent-row'],
      ]) {
        await page.goto(`${env.origin}/${hash}`);
        await page.waitForSelector(rendered);
        expect([hash, await overflow()]).toEqual([hash, 0]);
      }
      await page.goto(`${env.origin}/#narrow/channel/Verona`);
      await page.locator('.message button.sender').first().click();
      await page.waitForSelector('.user-card');
      expect(await overflow()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'phone-card.png') });
      await page.keyboard.press('Escape');
      await page.click('.topbar .menu');
      await page.waitForSelector('#sidebar [data-view="people"]');
      expect(await overflow()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'phone-menu.png') });
    } finally {
      await context.close();
    }
  });
});
