import type { Page } from 'playwright-core';
import { messageAction, openSendLater, registeredState, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** The wall clock of a moment in a zone, as a datetime-local field takes it ("2026-12-02T22:42:07"). */
const wallClock = (ms: number, timeZone: string) => {
  const parts: Record<string, string> = {};
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const p of f.formatToParts(ms)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
};

/** Issue 45: "Send at" in the user's own time zone, and the message editor's Enter or Ctrl+Enter by enter_sends. */
describe('the web client: Send at in the user’s time zone, Enter sends in the editor', () => {
  const env = useBrowserWorld();

  const scheduledOf = async (who: 'iago' | 'othello', content: string) => {
    const list = (await env.world.as(who).get('/scheduled_messages')).body.scheduled_messages as {
      content: string;
      scheduled_delivery_timestamp: number;
    }[];
    return list.find((m) => m.content === content);
  };
  const schedule = async (page: Page, content: string, at: string) => {
    await page.fill('#compose-content', content);
    // "Send at" is in the panel that the Send menu's "Send later at a chosen time…" opens.
    if (!(await page.locator('#compose-send-at').isVisible())) await openSendLater(page);
    await page.fill('#compose-send-at', at);
    await page.click('#compose-send-later');
    await page.locator('.notice >> text=Scheduled for').waitFor();
  };

  it('takes and shows the time of "Send at" in the time zone of the user’s settings, else the browser’s', async () => {
    // An hour from now, to the second, seen from three zones: the browser is in New York.
    const when = Math.floor((Date.now() + 3_600_000) / 1000) * 1000;
    expect((await env.world.as('iago').patch('/settings', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    const tokyo = await userPage(env.browser, env.origin, 'iago@zulip.com', {
      timezoneId: 'America/New_York',
      locale: 'en-US',
    });
    try {
      await tokyo.page.goto(`${env.origin}/#narrow/channel/Verona/topic/later`);
      await tokyo.page.locator('#compose-content').waitFor();
      await openSendLater(tokyo.page);
      expect(await tokyo.page.textContent('label.later')).toContain('Asia/Tokyo');
      await schedule(tokyo.page, 'In Tokyo time.', wallClock(when, 'Asia/Tokyo'));
      expect((await scheduledOf('iago', 'In Tokyo time.'))?.scheduled_delivery_timestamp).toBe(when / 1000);
      // The confirmation and the list of scheduled messages say Tokyo's time and name the zone.
      const tokyoClock = (second?: '2-digit') =>
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'Asia/Tokyo',
          hour: 'numeric',
          minute: '2-digit',
          second,
          hourCycle: 'h12',
        }).format(when);
      expect(await tokyo.page.textContent('.notice')).toContain(tokyoClock('2-digit'));
      expect(await tokyo.page.textContent('.notice')).toContain('GMT+9');
      const listed = tokyo.page.locator('.scheduled li', { hasText: 'In Tokyo time.' }).locator('time');
      expect(await listed.textContent()).toContain(tokyoClock());
    } finally {
      await tokyo.context.close();
    }

    // Without a zone of one's own, the browser's.
    expect((await registeredState(env.world, 'othello', ['user_settings'])).user_settings.timezone).toBe('');
    const browser = await userPage(env.browser, env.origin, 'othello@zulip.com', {
      timezoneId: 'America/New_York',
      locale: 'en-US',
    });
    try {
      await browser.page.goto(`${env.origin}/#narrow/channel/Verona/topic/later`);
      await browser.page.locator('#compose-content').waitFor();
      await openSendLater(browser.page);
      expect(await browser.page.textContent('label.later')).toContain('America/New_York');
      await schedule(browser.page, 'In New York time.', wallClock(when, 'America/New_York'));
      expect((await scheduledOf('othello', 'In New York time.'))?.scheduled_delivery_timestamp).toBe(when / 1000);
    } finally {
      await browser.context.close();
    }
  });

  it('saves an edit with Ctrl+Enter by default (Enter a new line), with Enter when “Enter sends” is on', async () => {
    const id = await sendToChannel(env.world, 'cordelia', 'Verona', 'edits', 'first line');
    const source = async () =>
      (await env.world.as('cordelia').get(`/messages/${id}`, { apply_markdown: false })).body.message.content as string;
    const edit = async (page: Page) => {
      await messageAction(page, id, 'edit');
      const field = page.locator(`.message[data-id="${id}"] .edit-content`);
      await page.waitForFunction((sel) => {
        const el = document.querySelector<HTMLTextAreaElement>(sel);
        return !!el && !el.disabled && el.value !== '';
      }, `.message[data-id="${id}"] .edit-content`);
      await field.focus();
      await page.keyboard.press('End');
      await page.keyboard.press('Control+End');
      return field;
    };
    const closed = (page: Page) => page.locator(`.message[data-id="${id}"] .editor`).waitFor({ state: 'detached' });
    expect((await registeredState(env.world, 'cordelia', ['user_settings'])).user_settings.enter_sends).toBe(false);
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/edits`);
      await page.locator(`.message[data-id="${id}"]`).waitFor();
      const field = await edit(page);
      await page.keyboard.press('Enter');
      await page.keyboard.type('second line');
      expect(await field.inputValue()).toBe('first line\nsecond line');
      await page.keyboard.press('Control+Enter');
      await closed(page);
      expect(await source()).toBe('first line\nsecond line');

      // "Enter sends" on (read from /register after a reload): Enter saves, Shift+Enter and Ctrl+Enter a new line.
      expect((await env.world.as('cordelia').patch('/settings', { enter_sends: true })).status).toBe(200);
      await page.reload();
      await page.locator(`.message[data-id="${id}"]`).waitFor();
      const again = await edit(page);
      expect(await page.getAttribute(`.message[data-id="${id}"] .edit-save`, 'title')).toBe('Save (Enter)');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('third');
      await page.keyboard.press('Control+Enter');
      await page.keyboard.type('fourth');
      expect(await again.inputValue()).toBe('first line\nsecond line\nthird\nfourth');
      await page.keyboard.press('Enter');
      await closed(page);
      expect(await source()).toBe('first line\nsecond line\nthird\nfourth');
    } finally {
      await context.close();
    }
  });
});
