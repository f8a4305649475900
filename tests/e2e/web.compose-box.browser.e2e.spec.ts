import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { registeredState, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 45: the compact compose box, as a person sees it in an 800 px high window. */
describe('the web client: the compact compose box', () => {
  const env = useBrowserWorld();
  const scheduled = async (content: string) =>
    (
      (await env.world.as('hamlet').get('/scheduled_messages')).body.scheduled_messages as {
        content: string;
        topic: string;
        scheduled_delivery_timestamp: number;
      }[]
    ).find((m) => m.content === content);
  const box = async (page: Page, selector: string) => {
    const b = await page.locator(selector).boundingBox();
    if (!b) throw new Error(`${selector} is not shown`);
    return b;
  };
  const openTopic = async (page: Page) => {
    await page.goto(`${env.origin}/#narrow/channel/Verona/topic/compact`);
    await page.locator('#compose-content').waitFor();
  };

  it('is small when empty, its topic beside the channel, and its message field grows with the text', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await openTopic(page);
      const empty = await box(page, 'form.compose');
      // It was 275 px of the 800 with Preview, Send, "Send at" and "Send later" as stacked bars.
      expect(empty.height).toBeLessThan(120);
      // The topic field on the channel's line, Send on the tools' line, each one line high.
      const channel = await box(page, '.compose-channel');
      const topic = await box(page, '#compose-topic');
      expect(await page.textContent('.compose-channel')).toBe('#Verona');
      expect(Math.abs(channel.y + channel.height / 2 - (topic.y + topic.height / 2))).toBeLessThan(4);
      expect(topic.x).toBeGreaterThan(channel.x + channel.width);
      const send = await box(page, '#compose-send');
      const preview = await box(page, '#compose-preview-button');
      expect(Math.abs(send.y + send.height / 2 - (preview.y + preview.height / 2))).toBeLessThan(4);
      expect(send.height).toBeLessThan(40);
      expect(await page.locator('#compose-send-at').count()).toBe(0);

      const field = await box(page, '#compose-content');
      expect(field.height).toBeLessThan(45);
      await page.fill('#compose-content', 'one\ntwo\nthree\nfour\nfive');
      await page.waitForFunction((h) => document.querySelector('#compose-content')!.clientHeight > h * 2, field.height);
      const grown = await box(page, '#compose-content');
      expect(grown.height).toBeGreaterThan(field.height * 2);
      // All five lines are shown: nothing to scroll inside the field.
      expect(
        await page.evaluate(() => {
          const el = document.querySelector<HTMLTextAreaElement>('#compose-content')!;
          return el.scrollHeight - el.clientHeight;
        }),
      ).toBeLessThanOrEqual(1);
      // It stops growing at 40 % of the window, then scrolls.
      await page.fill('#compose-content', Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n'));
      await page.waitForFunction(() => {
        const el = document.querySelector<HTMLTextAreaElement>('#compose-content')!;
        return el.scrollHeight > el.clientHeight;
      });
      expect((await box(page, '#compose-content')).height).toBeLessThanOrEqual(800 * 0.4 + 1);
      // Emptied, it is one line again.
      await page.fill('#compose-content', '');
      await page.waitForFunction((h) => document.querySelector('#compose-content')!.clientHeight < h, field.height + 1);
      expect((await box(page, 'form.compose')).height).toBeLessThan(120);

      // A new message (c from the Inbox): the channel picker and the topic on one line too.
      await page.goto(`${env.origin}/#inbox`);
      await page.locator('#narrow-title').waitFor();
      await page.locator('body').press('c');
      await page.waitForFunction(() => document.activeElement?.id === 'compose-channel');
      const picker = await box(page, '#compose-channel');
      const newTopic = await box(page, '#compose-topic');
      expect(Math.abs(picker.y + picker.height / 2 - (newTopic.y + newTopic.height / 2))).toBeLessThan(4);
      expect(newTopic.x).toBeGreaterThan(picker.x + picker.width);
      expect((await box(page, '.new-message form.compose')).height).toBeLessThan(120);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offers send later in the Send button’s menu, by keyboard, and schedules the message', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com', {
      timezoneId: 'America/New_York',
      locale: 'en-US',
    });
    try {
      expect((await registeredState(env.world, 'hamlet', ['user_settings'])).user_settings.timezone).toBe('');
      await openTopic(page);
      await page.fill('#compose-content', 'Tomorrow morning, then.');
      // The menu by keyboard: ArrowDown on its button opens it, focus on its first item; arrows move, Escape
      // closes it and gives focus back.
      await page.focus('#compose-send-menu');
      await page.keyboard.press('ArrowDown');
      const items = page.locator('#compose-send-options [role="menuitem"]');
      await page.waitForFunction(() => document.activeElement?.classList.contains('later-morning'));
      expect(await page.getAttribute('#compose-send-menu', 'aria-expanded')).toBe('true');
      expect(await items.allTextContents()).toEqual([
        expect.stringMatching(/^Send tomorrow, .*9:00\sAM$/),
        'Send later at a chosen time…',
      ]);
      expect(await seriousViolations(page)).toEqual([]);
      const focusedItem = () => page.evaluate(() => document.activeElement?.className);
      // Down through send later and the choice of what sends (compose-format's test), round to the first again.
      const walk: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('ArrowDown');
        walk.push(await focusedItem());
      }
      expect(walk).toEqual(['later-custom', 'enter-sends', 'ctrl-enter-sends', 'later-morning']);
      await page.keyboard.press('Escape');
      await items.first().waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compose-send-menu');
      expect(await page.inputValue('#compose-content')).toBe('Tomorrow morning, then.');

      // Enter on "Send tomorrow" schedules it for 9:00 tomorrow in the browser's zone (New York).
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.classList.contains('later-morning'));
      await page.keyboard.press('Enter');
      await page.locator('.notice >> text=Scheduled for').waitFor();
      const morning = await scheduled('Tomorrow morning, then.');
      expect(morning?.topic).toBe('compact');
      const when = new Date(morning!.scheduled_delivery_timestamp * 1000);
      const ny = (options: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', ...options });
      expect(ny({ hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).format(when)).toBe('09:00');
      const tomorrow = new Date(Date.now() + 86_400_000);
      expect(ny({ dateStyle: 'short' }).format(when)).toBe(ny({ dateStyle: 'short' }).format(tomorrow));
      expect(await page.inputValue('#compose-content')).toBe('');

      // A chosen time: the panel opens with its field focused, its zone named; Schedule sends it then.
      await page.fill('#compose-content', 'At a time of my choosing.');
      await page.focus('#compose-send-menu');
      // ArrowUp opens it on its last item; two more up is the chosen time.
      await page.keyboard.press('ArrowUp');
      await page.waitForFunction(() => document.activeElement?.classList.contains('ctrl-enter-sends'));
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      expect(await focusedItem()).toBe('later-custom');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'compose-send-at');
      expect(await page.textContent('label.later')).toContain('America/New_York');
      expect(await seriousViolations(page)).toEqual([]);
      const at = Math.floor((Date.now() + 7_200_000) / 60_000) * 60_000;
      const parts = Object.fromEntries(
        ny({
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(at)
          .map((p) => [p.type, p.value]),
      );
      await page.fill('#compose-send-at', `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`);
      await page.click('#compose-send-later');
      await page.locator('.notice >> text=Scheduled for').waitFor();
      expect((await scheduled('At a time of my choosing.'))?.scheduled_delivery_timestamp).toBe(at / 1000);
      // The panel closes once the draft is gone too, focus back on the menu's button.
      await page.locator('#compose-send-at').waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compose-send-menu');
    } finally {
      await context.close();
    }
  });
});
