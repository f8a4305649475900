import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { browserWorld, eventually, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Channels: browse, subscribe and unsubscribe, create, settings, subscribers; changes made elsewhere show live. */
describe('the web client: channels', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('browses all channels, subscribes and unsubscribes, and creates public and private ones', async () => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com');
    const cordelia = world.as('cordelia');
    const subscribed = async () =>
      ((await cordelia.get('/users/me/subscriptions')).body.subscriptions as { name: string }[]).map((s) => s.name);
    try {
      // A public channel Cordelia is not in.
      const made = await world.as('iago').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'lighthouse', description: 'A light on the rocks' }]),
      });
      expect(made.status).toBe(200);
      const all = (await cordelia.get('/streams')).body.streams as { name: string }[];
      const mine = await subscribed();
      const other = all.find((s) => !mine.includes(s.name))!;
      expect(other.name).toBe('lighthouse');
      // Created after the page loaded: it arrives as a `stream` event.
      await page.click('[data-view="channels"]');
      await page.waitForSelector(`[data-channel="${other.name}"] .description >> text=A light on the rocks`);
      expect(await page.locator('.channel-list li').count()).toBe(all.length);

      await page.click(`[data-channel="${other.name}"] button.toggle-subscription`);
      await page.waitForSelector(`#sidebar [data-stream="${other.name}"]`);
      expect(await subscribed()).toContain(other.name);
      await page.click(`[data-channel="${other.name}"] button.toggle-subscription`);
      await page.waitForSelector(`#sidebar [data-stream="${other.name}"]`, { state: 'detached' });
      expect(await subscribed()).not.toContain(other.name);

      await page.fill('#channel-new-name', 'lantern club');
      await page.fill('#channel-new-description', 'Those who walk at night');
      await page.check('#channel-new-private');
      await page.click('#channel-create');
      await page.waitForSelector('#sidebar [data-stream="lantern club"]');
      const created = ((await cordelia.get('/users/me/subscriptions')).body.subscriptions as Record<string, unknown>[]).find(
        (s) => s.name === 'lantern club',
      )!;
      expect([created.invite_only, created.description]).toEqual([true, 'Those who walk at night']);
      // A private channel is not offered to others.
      const othello = (await world.as('othello').get('/streams')).body.streams as { name: string }[];
      expect(othello.some((s) => s.name === 'lantern club')).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('shows subscriptions, renames and archiving made by others live, with the subscriber list', async () => {
    const iago = await userPage(browser, origin, 'iago@zulip.com');
    const othello = await userPage(browser, origin, 'othello@zulip.com');
    try {
      // Iago creates a channel and subscribes Othello to it: it appears in Othello's list without a reload.
      await iago.page.click('[data-view="channels"]');
      await iago.page.fill('#channel-new-name', 'watchtower');
      await iago.page.fill('#channel-new-description', 'Eyes on the sea');
      await iago.page.click('#channel-create');
      await iago.page.waitForSelector('#sidebar [data-stream="watchtower"]');
      const id = (await world.as('iago').get('/get_stream_id', { stream: 'watchtower' })).body.stream_id as number;
      expect(
        (
          await world.as('iago').post('/users/me/subscriptions', {
            subscriptions: JSON.stringify([{ name: 'watchtower' }]),
            principals: JSON.stringify([world.user('othello').id]),
          })
        ).status,
      ).toBe(200);
      await othello.page.waitForSelector('#sidebar [data-stream="watchtower"]');

      // Its page lists the subscribers; administrators get its settings.
      await iago.page.goto(`${origin}/#channels/${id}`);
      await iago.page.waitForSelector('.subscribers >> text=Othello, the Moor of Venice');
      expect(await iago.page.locator('.subscribers li').allTextContents()).toEqual(
        [world.user('iago').fullName, world.user('othello').fullName].sort(),
      );
      await othello.page.goto(`${origin}/#channels/${id}`);
      await othello.page.waitForSelector('.channel-detail');
      expect(await othello.page.locator('.channel-settings').count()).toBe(0);

      await iago.page.fill('#channel-edit-name', 'lookout');
      await iago.page.fill('#channel-edit-description', 'Eyes on the harbour');
      await iago.page.click('#channel-save');
      await othello.page.waitForSelector('#sidebar [data-stream="lookout"]');
      await othello.page.waitForSelector('.channel-detail .description >> text=Eyes on the harbour');
      const stream = (await world.as('othello').get(`/streams/${id}`)).body.stream as Record<string, unknown>;
      expect([stream.name, stream.description]).toEqual(['lookout', 'Eyes on the harbour']);

      iago.page.once('dialog', (dialog) => void dialog.accept());
      await iago.page.click('#channel-archive');
      await othello.page.waitForSelector('#sidebar [data-stream="lookout"]', { state: 'detached' });
      await eventually('the channel archived', async () =>
        ((await world.as('iago').get(`/streams/${id}`)).body.stream as { is_archived?: boolean })?.is_archived === true,
      );
    } finally {
      await iago.context.close();
      await othello.context.close();
    }
  });
});
