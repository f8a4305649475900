import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { World } from '@confab/devkit';
import { chromium, type Browser } from 'playwright-core';
import { channelIds, createLink, logIn, STRONG_PASSWORD } from './support/invitations';
import { newWorld } from './support/system';

jest.setTimeout(90_000);

/** Debian's chromium package (scripts/confab.mjs installs it for `npm test`). */
const CHROMIUM = process.env.CONFAB_CHROMIUM ?? '/usr/bin/chromium';

describe('the invitation page in a real browser', () => {
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    world = await newWorld();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Organizations live on subdomains of localhost; the gateway listens on 127.0.0.1.
      args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs a person up through the form, who can then log in and is in the invited channel', async () => {
    const channels = await channelIds(world.as('iago'));
    const { link } = await createLink(world.as('iago'), { stream_ids: [channels.Venice] });
    const page = await browser.newPage();
    try {
      const opened = await page.goto(link);
      expect(opened?.status()).toBe(200);
      expect(await page.title()).toBe(`Join ${world.realm.name}`);

      // An address already in use: the page says so above the form and keeps what was typed.
      await page.fill('#full_name', 'Rosencrantz');
      await page.fill('#email', world.user('hamlet').email);
      await page.fill('#password', STRONG_PASSWORD);
      await Promise.all([page.waitForNavigation(), page.click('#submit')]);
      expect(await page.textContent('[role="alert"]')).toBe('Email is already in use.');
      expect(await page.inputValue('#full_name')).toBe('Rosencrantz');
      expect(await page.inputValue('#password')).toBe('');

      const email = `rosencrantz-${randomBytes(4).toString('hex')}@example.com`;
      await page.fill('#email', email);
      await page.fill('#password', STRONG_PASSWORD);
      await Promise.all([page.waitForNavigation(), page.click('#submit')]);
      expect(await page.textContent('#created')).toContain(`Your account ${email} has been created.`);

      // The page continues into the web client, whose sign-in form has the new address; signing in opens the app
      // on its Inbox, with the invited channel in the channel list, and the channel opens.
      await page.click('#continue');
      await page.waitForSelector('#signin');
      expect(await page.inputValue('#email')).toBe(email);
      await page.fill('#password', STRONG_PASSWORD);
      await page.click('#signin');
      await page.waitForSelector('[data-stream="Venice"]');
      expect(await page.textContent('#narrow-title')).toBe('Inbox');
      await page.click('[data-stream="Venice"]');
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Venice');

      const rosencrantz = await logIn(world, email, STRONG_PASSWORD);
      expect((await rosencrantz.get('/users/me')).body.full_name).toBe('Rosencrantz');
      const subs = await rosencrantz.get('/users/me/subscriptions');
      expect((subs.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(['Venice']);
    } finally {
      await page.close();
    }
  });
});
