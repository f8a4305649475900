import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_PASSWORD, type DevUserName, type World } from '@confab/devkit';
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
  // Every page of this file comes from the world's own client address, as its API clients do: the gateway counts
  // requests without credentials (the sign-in page, /server_settings) per address, and the browser files running
  // side by side would otherwise share 127.0.0.1's hundred a minute and refuse one another's sign-ins.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) =>
    newContext({
      ...options,
      extraHTTPHeaders: { 'x-forwarded-for': world.clientAddress, ...options.extraHTTPHeaders },
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

/**
 * How many elements match `selector` on the settings page of a member (Hamlet), once it has shown what every member
 * sees (the invitation links): the administrators' pages' tests check that members get none of theirs.
 */
export async function countOnMemberSettings(browser: Browser, origin: string, selector: string): Promise<number> {
  const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
  try {
    await page.click('#settings-open');
    await page.locator('#settings-title').waitFor();
    await page.locator('#invites-heading').waitFor();
    return await page.locator(selector).count();
  } finally {
    await context.close();
  }
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

/**
 * A browser test file's own organization and browser, made before its tests and closed after them; the fields are
 * filled once `beforeAll` has run.
 */
export function useBrowserWorld(): { world: World; browser: Browser; origin: string } {
  const env = {} as { world: World; browser: Browser; origin: string };
  beforeAll(async () => {
    Object.assign(env, await browserWorld());
  });
  afterAll(async () => {
    await env.browser?.close();
  });
  return env;
}

/** Waits until the page's heading (the view or conversation shown) says `text`. */
export const waitForTitle = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('#narrow-title')?.textContent === t, text);

/** Sends a channel message as one of the organization's people; its id. */
export async function sendToChannel(
  world: World,
  from: DevUserName,
  to: string,
  topic: string,
  content: string,
): Promise<number> {
  const sent = await world.as(from).post('/messages', { type: 'stream', to, topic, content });
  if (sent.status !== 200) throw new Error(`sending failed: ${sent.text}`);
  return sent.body.id as number;
}

/** A person's state of the given kinds as the server has it now (POST /register with fetch_event_types). */
export async function registeredState(world: World, who: DevUserName, kinds: string[]): Promise<Record<string, any>> {
  return (await world.as(who).post('/register', { fetch_event_types: JSON.stringify(kinds) })).body;
}

/** Chooses one of a message's less-used actions from its "⋯" menu (Copy link, Edit, Move, Delete). */
export async function messageAction(
  page: Page,
  id: number | undefined,
  action: 'copy-link' | 'edit' | 'move' | 'delete',
): Promise<void> {
  if (id === undefined) throw new Error('no message to act on');
  const message = page.locator(`.message[data-id="${id}"]`);
  await message.locator('button.more').click();
  await message.locator(`.menu [role="menuitem"].${action}`).click();
}

/** Opens "Send later at a chosen time…" from the compose box's Send menu: its "Send at" field is then shown. */
export async function openSendLater(page: Page): Promise<void> {
  await page.click('#compose-send-menu');
  await page.click('#compose-send-options [role="menuitem"].later-custom');
  await page.locator('#compose-send-at').waitFor();
}

/** A test's own set-up call, which must succeed before the page is looked at. */
export function setUpOk(response: { status: number; text: string }): void {
  if (response.status !== 200) throw new Error(response.text);
}

/** The ids of channels by name, as the user sees them. */
export async function channelIdsOf(client: ReturnType<World['as']>, ...names: string[]): Promise<number[]> {
  return Promise.all(
    names.map(async (name) => (await client.get('/get_stream_id', { stream: name })).body.stream_id as number),
  );
}
