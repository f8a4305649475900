import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, SCREENSHOTS, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** The names of the rows a sidebar section shows (channels by name, people and bots by address). */
const shown = (page: Page, section: string, attribute: 'data-stream' | 'data-user') =>
  page
    .locator(`#sidebar [data-section="${section}"] [${attribute}]`)
    .evaluateAll((rows, a) => rows.map((r) => r.getAttribute(a) ?? ''), attribute);

/** Whether the section's rows show, as its heading's button says and as a person sees them. */
const expanded = (page: Page, section: string) =>
  page.getAttribute(`#sidebar [data-section="${section}"] .section-toggle`, 'aria-expanded');

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/**
 * Issue 45, navigation: a sidebar that stays usable with many channels and people — "Filter channels" and "Search
 * people", bots apart from people, sections that collapse and stay collapsed.
 */
describe('the web client: the sidebar with many channels', () => {
  const env = useBrowserWorld();
  // Fifty more channels for Hamlet, two of them about the harbour, and one unread message in one of those.
  const crews = Array.from({ length: 48 }, (_, i) => `crew ${String(i + 1).padStart(2, '0')}`);
  const extra = [...crews, 'harbour watch', 'Harbour-Masters'];
  let botEmail = '';

  beforeAll(async () => {
    const hamlet = env.world.as('hamlet');
    const made = await hamlet.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify(extra.map((name) => ({ name }))),
    });
    expect(made.status).toBe(200);
    await sendToChannel(env.world, 'othello', 'harbour watch', 'tides', 'High tide at noon');
    const bot = await hamlet.post('/bots', { full_name: 'Tide Bot', short_name: 'tide' });
    expect(bot.status).toBe(200);
    botEmail = (await hamlet.get(`/users/${bot.body.user_id}`)).body.user.email as string;
    expect(botEmail).toMatch(/^tide-bot@/);
  });

  it('narrows the channels to those whose name or a word of it starts with what is typed; Esc brings them back', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      const watch = page.locator('#sidebar [data-stream="harbour watch"]');
      await watch.locator('.unread >> text=1').waitFor();
      const all = await shown(page, 'channels', 'data-stream');
      expect(all).toEqual(expect.arrayContaining([...extra, 'Verona', 'Denmark']));

      // q (Zulip's key) goes to the filter.
      await page.keyboard.press('q');
      await eventually('q to focus the filter', async () => (await focusedId(page)) === 'channel-filter');
      await page.keyboard.type('HARB');
      await page.locator('#sidebar [data-stream="Verona"]').waitFor({ state: 'detached' });
      expect((await shown(page, 'channels', 'data-stream')).sort()).toEqual(['Harbour-Masters', 'harbour watch']);
      // The unread count stays on the channel that is left.
      expect(await watch.locator('.unread').textContent()).toBe('1');
      await page.screenshot({ path: join(SCREENSHOTS, 'sidebar-filter.png') });

      // A word inside the name (after a hyphen) matches; the middle of a word does not.
      await page.fill('#channel-filter', 'masters');
      await watch.waitFor({ state: 'detached' });
      expect(await shown(page, 'channels', 'data-stream')).toEqual(['Harbour-Masters']);
      await page.fill('#channel-filter', 'bour');
      await page.locator('#sidebar [data-section="channels"] .no-match >> text=No channels match.').waitFor();
      expect(await shown(page, 'channels', 'data-stream')).toEqual([]);

      // Esc clears the filter: every channel is back, in the same order.
      await page.fill('#channel-filter', 'crew 0');
      await page.locator('#sidebar [data-stream="crew 10"]').waitFor({ state: 'detached' });
      expect(await shown(page, 'channels', 'data-stream')).toEqual(crews.slice(0, 9));
      await page.press('#channel-filter', 'Escape');
      await watch.waitFor();
      expect(await page.inputValue('#channel-filter')).toBe('');
      expect(await shown(page, 'channels', 'data-stream')).toEqual(all);
    } finally {
      await context.close();
    }
  });

  it('finds people by name or address, and lists bots under Bots, not among the people', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      const bots = page.locator('#sidebar [data-section="bots"]');
      await bots.locator(`[data-user="${botEmail}"] >> text=Tide Bot`).waitFor();
      expect(await bots.locator('h2').textContent()).toBe('Bots');
      // The organization's own bot and Hamlet's new one.
      const defaultBot = env.world.user('default-bot').email;
      expect((await shown(page, 'bots', 'data-user')).sort()).toEqual([defaultBot, botEmail].sort());
      const people = await shown(page, 'people', 'data-user');
      expect(people).toEqual(expect.arrayContaining(['othello@zulip.com', 'cordelia@zulip.com', 'iago@zulip.com']));
      expect(people).not.toContain(botEmail);
      expect(people).not.toContain(defaultBot);
      expect(people).not.toContain('hamlet@zulip.com');

      await page.fill('#people-filter', 'moor');
      await page
        .locator('#sidebar [data-section="people"] [data-user="iago@zulip.com"]')
        .waitFor({ state: 'detached' });
      expect(await shown(page, 'people', 'data-user')).toEqual(['othello@zulip.com']);
      expect(await page.textContent('#sidebar [data-user="othello@zulip.com"] .name')).toBe(
        'Othello, the Moor of Venice',
      );
      await page.fill('#people-filter', 'CORDELIA@');
      await page.locator('#sidebar [data-section="people"] [data-user="cordelia@zulip.com"]').waitFor();
      expect(await shown(page, 'people', 'data-user')).toEqual(['cordelia@zulip.com']);
      // The bot is not a person the search finds; it stays listed under Bots.
      await page.fill('#people-filter', 'tide');
      await page.locator('#sidebar [data-section="people"] .no-match >> text=No one matches.').waitFor();
      expect(await shown(page, 'bots', 'data-user')).toContain(botEmail);
      await page.press('#people-filter', 'Escape');
      await page.locator('#sidebar [data-section="people"] [data-user="iago@zulip.com"]').waitFor();
      expect(await shown(page, 'people', 'data-user')).toEqual(people);

      // Esc once more leaves the empty box; w (Zulip's key) comes back to it.
      await page.press('#people-filter', 'Escape');
      expect(await focusedId(page)).not.toBe('people-filter');
      await page.keyboard.press('w');
      await eventually('w to focus the search', async () => (await focusedId(page)) === 'people-filter');
      await page.keyboard.type('iag');
      await page
        .locator('#sidebar [data-section="people"] [data-user="othello@zulip.com"]')
        .waitFor({ state: 'detached' });
      expect(await shown(page, 'people', 'data-user')).toEqual(['iago@zulip.com']);
    } finally {
      await context.close();
    }
  });

  it('collapses a section from its heading, keeps its unread count beside it, and keeps it collapsed after a reload', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      const channels = page.locator('#sidebar [data-section="channels"]');
      await channels.locator('[data-stream="harbour watch"] .unread >> text=1').waitFor();
      await channels.locator('.section-toggle').click();
      await channels.locator('[data-stream="Verona"]').waitFor({ state: 'detached' });
      expect(await page.isVisible('#channel-filter')).toBe(false);
      expect(await expanded(page, 'channels')).toBe('false');
      // The channels' unread messages are counted beside the collapsed heading.
      expect(await channels.locator('.section-toggle .unread').textContent()).toBe('1');
      await page.click('#sidebar [data-section="bots"] .section-toggle');
      await page.locator(`#sidebar [data-user="${botEmail}"]`).waitFor({ state: 'detached' });
      // The people stay.
      expect(await page.isVisible('#sidebar [data-user="othello@zulip.com"]')).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, 'sidebar-collapsed.png') });

      await page.reload();
      await page.waitForSelector('#narrow-title');
      // Once the sidebar has the organization's people and counts, the two sections are still collapsed.
      await page.locator('#sidebar [data-user="othello@zulip.com"]').waitFor();
      await channels.locator('.section-toggle .unread >> text=1').waitFor();
      expect([await expanded(page, 'channels'), await expanded(page, 'bots'), await expanded(page, 'people')]).toEqual([
        'false',
        'false',
        'true',
      ]);
      expect(await shown(page, 'channels', 'data-stream')).toEqual([]);
      expect(await shown(page, 'bots', 'data-user')).toEqual([]);

      // Opened again, it shows its channels and its filter, and stays open after the next reload.
      await channels.locator('.section-toggle').click();
      await channels.locator('[data-stream="harbour watch"]').waitFor();
      await page.fill('#channel-filter', 'harb');
      await channels.locator('[data-stream="Verona"]').waitFor({ state: 'detached' });
      expect(await seriousViolations(page)).toEqual([]);
      await page.reload();
      await page.locator('#sidebar [data-stream="Verona"]').waitFor();
      expect(await expanded(page, 'channels')).toBe('true');
      await eventually('the bots to stay collapsed', async () => (await expanded(page, 'bots')) === 'false');
    } finally {
      await context.close();
    }
  });
});
