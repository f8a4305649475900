#!/usr/bin/env node
// The web client's README screenshots (issue 45): the message view, the Inbox, compose and the phone layout, each in
// light and dark, taken in Debian's Chromium against a deployment of its own with a few conversations of the dev
// organization's people, so that they can be taken again after a change. Needs a build
// (`node scripts/confab.mjs build`):
//   node bench/web-screenshots.mjs [directory=web/screenshots]
// Files: message-view-{light,dark}.png, inbox-{light,dark}.png, compose-{light,dark}.png, phone-{light,dark}.png.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { launchFor } from './browser.mjs';
import { BENCH_DIR, startBenchStack } from './lib.mjs';

const require = createRequire(import.meta.url);
const devkit = require('@confab/devkit');
const out = resolve(process.argv[2] ?? join(BENCH_DIR, '..', 'web', 'screenshots'));

// Conversations as a team writes them: [sender, channel, topic, content]; the reader is Hamlet.
const HISTORY = [
  ['othello', 'Verona', 'release 2.4', 'The release branch is cut. Anything that must go in, say so today.'],
  ['othello', 'Verona', 'release 2.4', 'Changelog draft: https://example.com/changelog/2.4'],
  ['cordelia', 'Verona', 'release 2.4', 'The migration for saved snippets is still open, it needs one more review.'],
  ['iago', 'Verona', 'release 2.4', "I'll review it after lunch."],
  ['hamlet', 'Verona', 'release 2.4', 'Thanks! I ran it on a copy of production:\n```\n12,031 rows in 1.8 s\n```'],
  ['prospero', 'Verona', 'lunch', 'Pizza at noon? :pizza:'],
  ['cordelia', 'Verona', 'lunch', 'Yes, count me in.'],
  ['othello', 'Denmark', 'on-call', 'Paging went quiet last night, nothing to hand over.'],
  ['iago', 'Denmark', 'on-call', 'One alert at 03:12, the disk on the build host. Cleaned up, **no action needed**.'],
  ['prospero', 'Scotland', 'design review', 'The new sidebar mock-ups are in the folder: 3 variants.'],
  ['cordelia', 'Scotland', 'design review', 'I like the second one: the filter box above the channels helps a lot.'],
  ['othello', 'Scotland', 'design review', '@**King Hamlet** what do you think of the compact compose box?'],
  ['iago', 'Verona', 'release 2.4', 'Reviewed, two small comments, otherwise good to go.'],
  ['othello', 'Verona', 'release 2.4', '- [x] migration\n- [x] changelog\n- [ ] tag the release'],
];

const { stack, info } = await startBenchStack();
let browser;
try {
  const world = await devkit.createWorld(info);
  for (const [sender, to, topic, content] of HISTORY) {
    const sent = await world.as(sender).post('/messages', { type: 'stream', to, topic, content });
    if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.body.msg}`);
    if (content.startsWith('Pizza'))
      await world.as('cordelia').post(`/messages/${sent.body.id}/reactions`, { emoji_name: '+1' });
  }
  const hamletId = world.user('hamlet').id;
  await world.as('cordelia').post('/messages', {
    type: 'direct',
    to: JSON.stringify([hamletId]),
    content: 'Do you have a minute for the release notes?',
  });

  let origin;
  ({ browser, origin } = await launchFor(world));
  mkdirSync(out, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    const shoot = async (page, name) => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(out, `${name}-${colorScheme}.png`) });
      console.log(`[screenshots] ${name}-${colorScheme}.png`);
    };
    const signIn = async (viewport) => {
      const context = await browser.newContext({ viewport, colorScheme, locale: 'en-US', timezoneId: 'Europe/London' });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await page.fill('#email', 'hamlet@zulip.com');
      await page.fill('#password', devkit.DEV_PASSWORD);
      await page.click('#signin');
      await page.waitForSelector('#narrow-title');
      // The desktop-notification banner, answered once as most people do.
      const notNow = page.locator('button', { hasText: 'Not now' });
      if (await notNow.count()) await notNow.click();
      return { context, page };
    };
    // The Inbox first: what is unread is still unread.
    const { context, page } = await signIn({ width: 1280, height: 800 });
    await page.goto(`${origin}/#inbox`);
    await page.locator('.inbox-row').first().waitFor();
    await shoot(page, 'inbox');
    await page.goto(`${origin}/#narrow/channel/Verona/topic/release.202.2E4`);
    await page.locator('ol.messages .message').last().waitFor();
    await page.locator('ol.messages .message').last().hover();
    await shoot(page, 'message-view');
    await page.goto(`${origin}/#narrow/channel/Scotland/topic/design.20review`);
    await page.locator('#compose-content').waitFor();
    const empty = await page.locator('form.compose').boundingBox();
    console.log(`[screenshots] the compose box, empty: ${Math.round(empty?.height ?? 0)} px of the window's 800`);
    // A message being written, the people autocomplete open.
    await page.focus('#compose-content');
    await page.keyboard.type('The compact one, with Send beside the field. Asking @cor');
    await page.locator('[role="listbox"] [role="option"]').first().waitFor();
    await shoot(page, 'compose');
    await context.close();
    const phone = await signIn({ width: 390, height: 844 });
    await phone.page.goto(`${origin}/#narrow/channel/Verona/topic/release.202.2E4`);
    await phone.page.locator('ol.messages .message').last().waitFor();
    await shoot(phone.page, 'phone');
    await phone.context.close();
  }
} finally {
  await browser?.close();
  await stack.stop({ cleanUp: true });
}
