import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_PASSWORD, type World } from '@confab/devkit';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { newWorld } from './system';

/** Debian's chromium package (scripts/confab.mjs installs it for `npm test`). */
export const CHROMIUM = process.env.CONFAB_CHROMIUM ?? '/usr/bin/chromium';

/** The READMEs' screenshots are refreshed with CONFAB_WEB_SCREENSHOTS=1; other runs keep theirs out of the tree. */
export const SCREENSHOTS = process.env.CONFAB_WEB_SCREENSHOTS
  ? join(__dirname, '..', '..', '..', 'web', 'screenshots')
  : mkdtempSync(join(tmpdir(), 'confab-web-'));

/** A fresh organization and a headless Chromium for the web client's browser tests; `close` ends the browser. */
export async function browserWorld(): Promise<{ world: World; browser: Browser; origin: string }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const world = await newWorld();
  const client = world.anonymous();
  const origin = `http://${client.options.host ?? new URL(client.baseUrl).host}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
  });
  return { world, browser, origin };
}

/** Signs in on the sign-in form, starting from `path` (a link into the client, kept through sign-in). */
export async function signIn(page: Page, origin: string, email: string, path = '/'): Promise<void> {
  await page.goto(`${origin}${path}`);
  await page.fill('#email', email);
  await page.fill('#password', DEV_PASSWORD);
  await page.click('#signin');
  await page.waitForSelector('#narrow-title');
}

/** A signed-in page in a context of its own (its own cookies: two users side by side). */
export async function userPage(
  browser: Browser,
  origin: string,
  email: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, ...options });
  const page = await context.newPage();
  await signIn(page, origin, email);
  return { context, page };
}

/** Polls `check` until it holds (no fixed sleeps), failing with `what` after the deadline. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
