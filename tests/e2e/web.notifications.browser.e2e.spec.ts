import type { BrowserContext, Page } from 'playwright-core';
import { eventually, registeredState, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

interface Seen {
  title: string;
  body: string;
}

/**
 * Records what the page raises: each Notification (before the browser's own, which headless Chromium does not
 * show) and each sound (the Web Audio gain node the chime starts with).
 */
function record(): void {
  const w = window as unknown as {
    __notes: { title: string; body: string }[];
    __shown: Notification[];
    __sounds: number;
  };
  w.__notes = [];
  w.__shown = [];
  w.__sounds = 0;
  const Real = window.Notification;
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      w.__notes.push({ title, body: options?.body ?? '' });
      super(title, options);
      w.__shown.push(this);
    }
  }
  window.Notification = Recorded;
  const { createGain } = Object.getOwnPropertyDescriptors(AudioContext.prototype);
  AudioContext.prototype.createGain = function (this: AudioContext) {
    w.__sounds += 1;
    return (createGain.value as (this: AudioContext) => GainNode).call(this);
  };

}

/** Issue 28: desktop notifications for DMs, mentions and followed topics as the settings say, a sound, the title. */
describe('the web client: notifications', () => {
  const env = useBrowserWorld();

  const notes = (page: Page) => page.evaluate(() => (window as unknown as { __notes: Seen[] }).__notes);
  const sounds = (page: Page) => page.evaluate(() => (window as unknown as { __sounds: number }).__sounds);
  const dm = async (content: string) => {
    const sent = await env.world
      .as('othello')
      .post('/messages', { type: 'direct', to: JSON.stringify([env.world.user('hamlet').id]), content });
    expect(sent.status).toBe(200);
  };
  const say = (to: string, topic: string, content: string) => sendToChannel(env.world, 'othello', to, topic, content);
  /** Waits until the server has Hamlet's desktop notifications and sounds on (or off). */
  const notificationsSaved = (on: boolean) =>
    eventually('the settings to be saved', async () => {
      const s = (await registeredState(env.world, 'hamlet', ['user_settings'])).user_settings;
      return s.enable_desktop_notifications === on && s.enable_sounds === on;
    });
  const noteWith = (page: Page, body: string) =>
    eventually(`a notification saying "${body}"`, async () => (await notes(page)).find((n) => n.body === body));

  async function granted(): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await userPage(env.browser, env.origin, 'hamlet@zulip.com', { permissions: ['notifications'] });
    await opened.context.addInitScript(record);
    await opened.page.reload();
    await opened.page.waitForSelector('#narrow-title');
    return opened;
  }

  it('notifies of DMs, mentions and followed topics with a sound, not of other channel messages; a click opens it', async () => {
    expect((await env.world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);
    const denmark = (await env.world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body
      .stream_id as number;
    expect(
      (
        await env.world
          .as('hamlet')
          .post('/user_topics', { stream_id: denmark, topic: 'followed', visibility_policy: 3 })
      ).status,
    ).toBe(200);
    const { context, page } = await granted();
    try {
      expect(await page.evaluate(() => Notification.permission)).toBe('granted');
      // No banner asking for a permission already given.
      expect(await page.locator('.permission-banner').count()).toBe(0);
      await dm('Are you there, my lord?');
      const first = await noteWith(page, 'Are you there, my lord?');
      expect(first.title).toBe('Othello, the Moor of Venice');
      expect(await sounds(page)).toBe(1);

      await say('Verona', 'plain', 'Nothing for Hamlet here');
      await say('Verona', 'call', `@**${env.world.user('hamlet').fullName}** a word`);
      const mention = await noteWith(page, `@${env.world.user('hamlet').fullName} a word`);
      expect(mention.title).toBe('Othello, the Moor of Venice (#Verona > call)');
      await say('Denmark', 'followed', 'News of a followed topic');
      await noteWith(page, 'News of a followed topic');
      expect((await notes(page)).map((n) => n.body)).toEqual([
        'Are you there, my lord?',
        `@${env.world.user('hamlet').fullName} a word`,
        'News of a followed topic',
      ]);
      expect(await sounds(page)).toBe(3);

      // The tab title counts the four unread messages; clicking the first notification opens its conversation.
      await eventually('the title to count them', async () => (await page.title()) === '(4) Inbox – Confab');
      await page.evaluate(() => {
        const first = (window as unknown as { __shown: Notification[] }).__shown[0];
        first?.onclick?.call(first, new Event('click'));
      });
      await page.waitForFunction(
        () => document.querySelector('#narrow-title')?.textContent === 'Othello, the Moor of Venice',
      );
      // Only the DM is read by opening it (the other three stay unread on the server too).
      await eventually('the DM to be read and the count to drop', async () => (await page.title()).startsWith('(3) '));
      const unread = await env.world.as('hamlet').get('/messages', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
      });
      expect(unread.body.messages).toHaveLength(3);
      await page.click('[data-view="inbox"]');
      await page.click('#mark-all-read');
      await eventually('the title to have no count', async () => (await page.title()) === 'Inbox – Confab');
    } finally {
      await context.close();
    }
  });

  it('follows the notification settings: no desktop notification for DMs when turned off, no sound when sounds are off', async () => {
    const { context, page } = await granted();
    try {
      await page.click('#settings-open');
      await page.uncheck('input[name="enable_desktop_notifications"]');
      await page.uncheck('input[name="enable_sounds"]');
      await notificationsSaved(false);
      await page.click('[data-view="inbox"]');
      await dm('Quiet now');
      await say('Denmark', 'followed', 'Still following');
      await noteWith(page, 'Still following');
      expect((await notes(page)).map((n) => n.body)).toEqual(['Still following']);
      expect(await sounds(page)).toBe(1);
      await page.click('#settings-open');
      await page.check('input[name="enable_desktop_notifications"]');
      await page.check('input[name="enable_sounds"]');
      await notificationsSaved(true);
      await page.click('[data-view="inbox"]');
      await dm('Loud again');
      await noteWith(page, 'Loud again');
      expect(await sounds(page)).toBe(2);
    } finally {
      await context.close();
    }
  });

  it('asks for permission with a banner once signed in, which "Not now" puts away', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      expect(await page.evaluate(() => Notification.permission)).toBe('default');
      await page.waitForSelector('.permission-banner #notifications-enable');
      await page.click('#notifications-not-now');
      await page.waitForSelector('.permission-banner', { state: 'detached' });
      await page.reload();
      await page.waitForSelector('#narrow-title');
      expect(await page.locator('.permission-banner').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
