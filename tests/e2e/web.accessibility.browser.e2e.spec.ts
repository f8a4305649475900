import type { World } from '@confab/devkit';
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { seriousViolations } from './support/axe';
import { browserWorld, SCREENSHOTS, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 27: every main view passes axe-core without serious or critical violations. */
describe('the web client: accessibility (axe-core)', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
    const sent = await world.as('othello').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'accessibility',
      content: "Hello @**Cordelia, Lear's daughter**, a message with **bold** text and a [link](https://example.com).",
    });
    expect(sent.status).toBe(200);
    const starred = await world.as('cordelia').post('/messages/flags', {
      messages: JSON.stringify([sent.body.id]),
      op: 'add',
      flag: 'starred',
    });
    expect(starred.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has no serious or critical violations on the sign-in page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector('#email');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  // Each view with what shows that it has rendered, and the name of its screenshot for web/README.md.
  it.each([
    ['the inbox', '#inbox', '.inbox', 'inbox'],
    ['recent conversations', '#recent', '.recent-row', 'recent'],
    ['the combined feed', '#feed', '.message', 'feed'],
    ['mentions', '#narrow/is/mentioned', '.message', ''],
    ['starred messages', '#narrow/is/starred', '.message', ''],
    ['drafts', '#drafts', '.drafts', ''],
    ['scheduled messages', '#scheduled', '.scheduled-view', ''],
    ['all channels', '#channels', '.channels-page', 'channels'],
    ['settings', '#settings', '.settings-page', ''],
    ['a topic', '#narrow/stream/Verona/topic/accessibility', '.message', ''],
    ['people', '#people', '.people-list li', 'people'],
    ['bots and integrations', '#settings/your-bots', '.add-bot-form .integration-list li', ''],
  ])('has no serious or critical violations on %s', async (_name, hash, rendered, screenshot) => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com');
    await page.goto(`${origin}/${hash}`);
    await page.waitForSelector(rendered);
    if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, `${screenshot}.png`) });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  // Issue 28: the dark theme's colours pass the same check (contrast included), on the main views.
  it.each([
    ['the inbox', '#inbox', '.inbox'],
    ['the combined feed', '#feed', '.message'],
    ['a topic', '#narrow/stream/Verona/topic/accessibility', '.message'],
    ['people', '#people', '.people-list li'],
    ['settings', '#settings', '.settings-page'],
    ['all channels', '#channels', '.channels-page'],
    ['bots and integrations', '#settings/your-bots', '.add-bot-form .integration-list li'],
  ])('has no serious or critical violations on %s in dark mode', async (_name, hash, rendered) => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com', { colorScheme: 'dark' });
    await page.goto(`${origin}/${hash}`);
    await page.waitForSelector(rendered);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('has no serious or critical violations on the user card and the list of shortcuts, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com', { colorScheme });
      await page.goto(`${origin}/#narrow/stream/Verona/topic/accessibility`);
      await page.locator('.message button.sender').first().click();
      await page.waitForSelector('.user-card');
      if (colorScheme === 'light') await page.screenshot({ path: join(SCREENSHOTS, 'user-card.png') });
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.waitForSelector('.user-card', { state: 'detached' });
      await page.keyboard.press('?');
      await page.waitForSelector('.shortcut-help');
      if (colorScheme === 'dark') await page.screenshot({ path: join(SCREENSHOTS, 'dark-shortcuts.png') });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });

  // Issue 28: the new message's box that c and x open, with its list of channels or of people open, light and dark.
  it('has no serious or critical violations on a new message to a channel and to people, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com', { colorScheme });
      await page.keyboard.press('c');
      await page.waitForFunction(() => document.activeElement?.id === 'compose-channel');
      await page.keyboard.type('ver');
      await page.locator('#compose-channel-options li').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.locator('.new-message').waitFor({ state: 'detached' });
      await page.keyboard.press('x');
      await page.waitForFunction(() => document.activeElement?.id === 'compose-recipient');
      await page.keyboard.type('othello');
      await page.keyboard.press('Enter');
      await page.locator('.new-message .pill').waitFor();
      await page.keyboard.type('ha');
      await page.locator('#compose-recipient-options li').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('has no serious or critical violations at phone width', async () => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com', {
      viewport: { width: 390, height: 844 },
    });
    for (const [hash, rendered] of <[string, string][]>[
      ['#inbox', '.inbox'],
      ['#narrow/stream/Verona/topic/accessibility', '.message'],
      ['#people', '.people-list li'],
      ['#settings/your-bots', '.add-bot-form .integration-list li'],
    ]) {
      await page.goto(`${origin}/${hash}`);
      await page.waitForSelector(rendered);
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-people.png') });
    await context.close();
  });
});
