import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, registeredState, SCREENSHOTS, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 45, the settings people expect: status, language and time zone, Enter or Ctrl+Enter, density. */
describe('the web client: status, language, time zone, Enter sends, density', () => {
  const env = useBrowserWorld();

  const userSettings = async (who: 'hamlet' | 'cordelia' | 'iago') => {
    const state = await registeredState(env.world, who, ['user_settings']);
    if (!state.user_settings) throw new Error(`/register answered ${JSON.stringify(state)}`);
    return state.user_settings as Record<string, unknown>;
  };
  /** Runs `change` on the page and waits for the server's answer to its PATCH /settings (no polling of /register). */
  const saving = async (page: Page, change: () => Promise<unknown>) => {
    const answer = page.waitForResponse((r) => r.url().endsWith('/json/settings') && r.request().method() === 'PATCH');
    await change();
    expect((await answer).status()).toBe(200);
  };
  const openSettings = async (page: Page) => {
    await page.click('#settings-open');
    await page.locator('#settings-title').waitFor();
  };

  it("sets a status from Zulip's presets or one's own, shown beside one's name to others, live, and clears it", async () => {
    const hamlet = env.world.user('hamlet');
    const status = async () => (await env.world.as('othello').get(`/users/${hamlet.id}/status`)).body.status;
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'othello@zulip.com');
    try {
      const badge = b.page.locator('[data-user="hamlet@zulip.com"] .user-status');
      expect(await badge.count()).toBe(0);
      await openSettings(a.page);
      expect(await a.page.textContent('#status-current')).toBe('No status set.');
      // The presets, as Zulip's.
      const presets = await a.page.locator('.status-preset').allTextContents();
      for (const text of ['In a meeting', 'Commuting', 'Out sick', 'Vacationing', 'Working remotely'])
        expect(presets.map((p) => p.trim())).toContainEqual(expect.stringContaining(text));
      await a.page.click('.status-preset[data-preset="In a meeting"]');
      await a.page.locator('#status-current >> text=In a meeting').waitFor();
      expect(await a.page.textContent('#status-current')).toBe('Your status: 📆 In a meeting');
      expect(await status()).toEqual({
        status_text: 'In a meeting',
        emoji_name: 'calendar',
        emoji_code: '1f4c6',
        reaction_type: 'unicode_emoji',
      });
      // Othello sees it beside Hamlet's name in the sidebar, without reloading.
      await badge.waitFor();
      expect(await badge.getAttribute('title')).toBe('In a meeting');
      expect(await badge.locator('[role="img"]').textContent()).toBe('📆');
      expect(await badge.locator('[role="img"]').getAttribute('aria-label')).toBe('In a meeting');

      // One's own text and an emoji from the picker.
      await a.page.fill('#status-text', 'Rehearsing the play');
      await a.page.click('#status-emoji');
      await a.page.fill('.emoji-picker .emoji-search', 'palm_tree');
      await a.page.keyboard.press('Enter');
      await a.page.click('#status-save');
      await a.page.locator('#status-current >> text=Rehearsing the play').waitFor();
      expect(await status()).toEqual({
        status_text: 'Rehearsing the play',
        emoji_name: 'palm_tree',
        emoji_code: '1f334',
        reaction_type: 'unicode_emoji',
      });
      await b.page.waitForFunction(
        () =>
          document.querySelector('[data-user="hamlet@zulip.com"] .user-status')?.getAttribute('title') ===
          'Rehearsing the play',
      );
      expect(await badge.locator('[role="img"]').textContent()).toBe('🌴');
      // In the People list (with the text) and on the card.
      await b.page.click('[data-view="people"]');
      const row = b.page.locator('[data-person="hamlet@zulip.com"]');
      expect(await row.locator('.user-status-text').textContent()).toBe('Rehearsing the play');
      await row.locator('.person-name').click();
      expect(await b.page.textContent('.user-card .status-text')).toBe('🌴 Rehearsing the play');
      await b.page.keyboard.press('Escape');
      // The sidebar's and the People list's statuses pass axe.
      expect(await seriousViolations(b.page)).toEqual([]);
      expect(await seriousViolations(a.page)).toEqual([]);

      // Cleared: gone from the sidebar, the People list and the server.
      await a.page.click('#status-clear');
      await a.page.locator('#status-current >> text=No status set.').waitFor();
      await badge.waitFor({ state: 'detached' });
      await row.locator('.user-status').waitFor({ state: 'detached' });
      expect(await status()).toEqual({});
      expect(await a.page.inputValue('#status-text')).toBe('');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('shows message times in the chosen time zone and language, after a reload too; or the browser’s', async () => {
    const id = await sendToChannel(env.world, 'othello', 'Verona', 'clocks', 'What hour now?');
    const sent = (await env.world.as('cordelia').get(`/messages/${id}`)).body.message.timestamp as number;
    const clock = (timeZone: string) =>
      new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }).format(
        sent * 1000,
      );
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com', {
      timezoneId: 'Europe/Lisbon',
      locale: 'en-US',
    });
    const time = page.locator(`.message[data-id="${id}"] time`);
    const showsClockOf = async (zone: string) => {
      await page.click('#settings-close');
      await eventually(`the time in ${zone}`, async () => ((await time.textContent()) ?? '').endsWith(clock(zone)));
    };
    try {
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/clocks`);
      await eventually('the browser’s time', async () =>
        ((await time.textContent()) ?? '').endsWith(clock('Europe/Lisbon')),
      );

      await openSettings(page);
      expect(await page.textContent('#setting-timezone option[value=""]')).toBe(
        'Not set: this browser’s (Europe/Lisbon)',
      );
      await saving(page, () => page.selectOption('#setting-timezone', 'Asia/Tokyo'));
      expect((await userSettings('cordelia')).timezone === 'Asia/Tokyo').toBe(true);
      await showsClockOf('Asia/Tokyo');
      expect(await time.getAttribute('title')).toMatch(/GMT\+9/);
      // From /register after a reload.
      await page.reload();
      await eventually('the zone after a reload', async () =>
        ((await time.textContent()) ?? '').endsWith(clock('Asia/Tokyo')),
      );

      // The language: dates are written in it.
      await openSettings(page);
      expect(await page.inputValue('#setting-language')).toBe('en');
      await saving(page, () => page.selectOption('#setting-language', 'de'));
      expect((await userSettings('cordelia')).default_language === 'de').toBe(true);
      await showsClockOf('Asia/Tokyo');
      const weekday = new Intl.DateTimeFormat('de', { timeZone: 'Asia/Tokyo', weekday: 'long' }).format(sent * 1000);
      expect(await time.getAttribute('title')).toContain(weekday);

      // Back to this browser's zone, by its button.
      await openSettings(page);
      await saving(page, () => page.click('#setting-timezone-browser'));
      expect((await userSettings('cordelia')).timezone).toBe('Europe/Lisbon');
      await page.locator('#setting-timezone-browser').waitFor({ state: 'detached' });
      expect(await page.inputValue('#setting-timezone')).toBe('Europe/Lisbon');
      await showsClockOf('Europe/Lisbon');
      expect(await time.getAttribute('title')).not.toMatch(/GMT/);
    } finally {
      await context.close();
    }
  });

  it('sends with Ctrl+Enter by default, Enter a new line; with “Enter sends”, Enter sends and Shift+Enter is a new line', async () => {
    const latest = async () =>
      (
        await env.world.as('iago').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          apply_markdown: false,
          narrow: JSON.stringify([
            { operator: 'channel', operand: 'Verona' },
            { operator: 'topic', operand: 'keys' },
          ]),
        })
      ).body.messages[0] as { content: string } | undefined;
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const field = '#compose-content';
    try {
      expect((await userSettings('iago')).enter_sends).toBe(false);
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/keys`);
      await page.locator(field).waitFor();
      await page.focus(field);
      await page.keyboard.type('line one');
      await page.keyboard.press('Enter');
      await page.keyboard.type('line two');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('line three');
      expect(await page.inputValue(field)).toBe('line one\nline two\nline three');
      expect(await latest()).toBeUndefined();
      expect(await page.getAttribute('#compose-send', 'title')).toBe('Send (Ctrl+Enter)');
      await page.keyboard.press('Control+Enter');
      await page.locator('.message .content >> text=line three').waitFor();
      expect((await latest())?.content).toBe('line one\nline two\nline three');
      await eventually('the field emptied', async () => (await page.inputValue(field)) === '');

      await openSettings(page);
      await saving(page, () => page.check('input[name="enter_sends"][value="true"]'));
      expect((await userSettings('iago')).enter_sends === true).toBe(true);
      await page.click('#settings-close');
      await page.locator(field).waitFor();
      expect(await page.getAttribute('#compose-send', 'title')).toBe('Send (Enter)');
      await page.focus(field);
      await page.keyboard.type('quick');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('and');
      await page.keyboard.press('Control+Enter');
      await page.keyboard.type('more');
      expect(await page.inputValue(field)).toBe('quick\nand\nmore');
      await page.keyboard.press('Enter');
      await page.locator('.message .content >> text=more').waitFor();
      expect((await latest())?.content).toBe('quick\nand\nmore');
      // Kept after a reload (from /register).
      await page.reload();
      await page.locator(field).waitFor();
      await page.focus(field);
      await page.keyboard.type('after the reload');
      await page.keyboard.press('Enter');
      await page.locator('.message .content >> text=after the reload').waitFor();
      expect((await latest())?.content).toBe('after the reload');
    } finally {
      await context.close();
    }
  });

  it('applies the font size and line spacing to the message view, in every window of the user, and keeps them', async () => {
    const id = await sendToChannel(env.world, 'othello', 'Denmark', 'density', 'Something is rotten');
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const metrics = (page: Page) =>
      page
        .locator(`.message[data-id="${id}"] .content`)
        .evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).lineHeight]);
    try {
      await b.page.goto(`${env.origin}/#narrow/channel/Denmark/topic/density`);
      await b.page.locator(`.message[data-id="${id}"] .content`).waitFor();
      expect(await metrics(b.page)).toEqual(['16px', '22.4px']);

      await openSettings(a.page);
      await saving(a.page, () => a.page.selectOption('#setting-font-size', '14'));
      await saving(a.page, () => a.page.selectOption('#setting-line-height', '122'));
      expect(
        await a.page
          .locator('#density-sample')
          .evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).lineHeight]),
      ).toEqual(['14px', '17.08px']);
      const saved = await userSettings('hamlet');
      expect([saved.web_font_size_px, saved.web_line_height_percent]).toEqual([14, 122]);
      // The other window follows (the user_settings events).
      await eventually('the other window’s density', async () => {
        const [size, height] = await metrics(b.page);
        return size === '14px' && height === '17.08px';
      });
      // And after a reload.
      await b.page.reload();
      await b.page.locator(`.message[data-id="${id}"] .content`).waitFor();
      expect(await metrics(b.page)).toEqual(['14px', '17.08px']);
      await a.page.selectOption('#setting-font-size', '20');
      await eventually('the larger size', async () => (await metrics(b.page))[0] === '20px');
      expect(await seriousViolations(a.page)).toEqual([]);
      await a.page.locator('#status-heading').scrollIntoViewIfNeeded();
      await a.page.screenshot({ path: join(SCREENSHOTS, 'settings-preferences.png'), fullPage: true });
      // The settings page scrolls inside itself: its heading to the top of it.
      await a.page.locator('#language-heading').evaluate((el) => {
        const pane = el.closest('.settings-page')!;
        pane.scrollTop += el.getBoundingClientRect().top - pane.getBoundingClientRect().top - 16;
      });
      await a.page.screenshot({ path: join(SCREENSHOTS, 'settings-density.png') });
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
