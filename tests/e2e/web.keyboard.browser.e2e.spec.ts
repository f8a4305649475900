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
      // The keys of this test among the list (web.shortcuts.browser.e2e.spec.ts checks the rest).
      expect(await help.locator('kbd').allTextContents()).toEqual(
        expect.arrayContaining(['c', 'x', 'r', 'j', 'k', 'n', '/ or Ctrl+K', 'q', 'w', 'Esc', '?']),
      );
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
      await page.keyboard.press('Control+Enter');
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

      // Esc leaves the compose box. c in a topic: that topic's compose box, on its topic field (filled in).
      await page.keyboard.press('Escape');
      expect(await focused(page)).not.toBe('compose-content');
      await page.keyboard.press('c');
      await eventually('the topic field to have focus', async () => (await focused(page)) === 'compose-topic');
      expect(await page.inputValue('#compose-topic')).toBe('keys');
      expect(await page.textContent('#narrow-title')).toBe('#Verona > keys');
      await page.keyboard.press('Escape');
    } finally {
      await context.close();
    }
  });

  const latest = async (who: 'hamlet', narrow: unknown[]) =>
    (
      await env.world.as(who).get('/messages', {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: JSON.stringify(narrow),
        apply_markdown: false,
      })
    ).body.messages[0] as { content: string; subject: string; display_recipient: unknown };

  it('c writes to the channel being read, else to a channel still to choose; x to people still to choose', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      // In a channel: its compose box, the topic field empty and focused.
      await page.click('[data-stream="Verona"]');
      await waitForTitle(page, '#Verona');
      await page.keyboard.press('c');
      await eventually('the topic field to have focus', async () => (await focused(page)) === 'compose-topic');
      expect(await page.inputValue('#compose-topic')).toBe('');
      await page.keyboard.press('Escape');

      // Where there is no channel (the Inbox): the channel field, empty; sending without one is refused.
      await page.click('[data-view="inbox"]');
      await waitForTitle(page, 'Inbox');
      await page.keyboard.press('c');
      await eventually('the channel field to have focus', async () => (await focused(page)) === 'compose-channel');
      expect(await page.inputValue('#compose-channel')).toBe('');
      expect(await page.locator('#compose-topic').inputValue()).toBe('');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('compose-content');
      await page.keyboard.type('Nowhere to go');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector(".new-message [role='alert'] >> text=Choose a channel");
      // Esc closes the box.
      await page.keyboard.press('Escape');
      await page.locator('.new-message').waitFor({ state: 'detached' });

      // Choosing the channel by typing part of its name, then the topic and the message.
      await page.keyboard.press('c');
      await eventually('the channel field to have focus', async () => (await focused(page)) === 'compose-channel');
      await page.keyboard.type('denm');
      await page.locator('#compose-channel-options >> text=#Denmark').waitFor();
      await page.keyboard.press('Enter');
      await eventually('the topic field to have focus', async () => (await focused(page)) === 'compose-topic');
      expect(await page.inputValue('#compose-channel')).toBe('Denmark');
      await page.keyboard.type('plans by keyboard');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('compose-content');
      await page.keyboard.type('Sent from the Inbox');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector('.new-message.sent >> text=#Denmark > plans by keyboard');
      expect(await page.textContent('#narrow-title')).toBe('Inbox');
      const sent = await latest('hamlet', [{ operator: 'channel', operand: 'Denmark' }]);
      expect([sent.subject, sent.content]).toEqual(['plans by keyboard', 'Sent from the Inbox']);

      // x: a direct message, its people chosen in the box (typed, Enter), then the message.
      await page.keyboard.press('x');
      await eventually('the recipient field to have focus', async () => (await focused(page)) === 'compose-recipient');
      expect(await page.inputValue('#compose-recipient')).toBe('');
      await page.keyboard.type('cordel');
      await page.keyboard.press('Enter');
      await page.locator('.new-message .pill >> text=Cordelia').waitFor();
      await page.keyboard.type('othello');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Backspace');
      expect(await page.locator('.new-message .pill').count()).toBe(1);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('compose-content');
      await page.keyboard.type('A word in private');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector('.new-message.sent >> text=Cordelia');
      const cordelia = env.world.user('cordelia');
      const dm = await latest('hamlet', [{ operator: 'dm', operand: [cordelia.id] }]);
      expect(dm.content).toBe('A word in private');
      expect(((dm.display_recipient as { email: string }[]) ?? []).map((r) => r.email).sort()).toEqual(
        [cordelia.email, 'hamlet@zulip.com'].sort(),
      );

      // In a direct-message conversation, c still asks for the channel (none is taken for granted).
      await page.click(`[data-user="${cordelia.email}"]`);
      await page.keyboard.press('c');
      await eventually('the channel field to have focus', async () => (await focused(page)) === 'compose-channel');
      expect(await page.inputValue('#compose-channel')).toBe('');
      // The conversation's own compose box gives way while the new message is open, and comes back after Esc.
      expect(await page.locator('#compose-content').count()).toBe(1);
      await page.keyboard.press('Escape');
      await page.locator('.new-message').waitFor({ state: 'detached' });
      await page.locator('#compose-content').waitFor();
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
      // The new message's box (x) below the Inbox, with someone chosen.
      await page.goto(`${env.origin}/#inbox`);
      await page.waitForSelector('.inbox');
      await page.keyboard.press('x');
      await page.waitForFunction(() => document.activeElement?.id === 'compose-recipient');
      await page.keyboard.type('cordelia');
      await page.keyboard.press('Enter');
      await page.locator('.new-message .pill').waitFor();
      expect(await overflow()).toBe(0);
      await page.keyboard.press('Escape');
      await page.locator('.new-message').waitFor({ state: 'detached' });
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
