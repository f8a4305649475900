#!/usr/bin/env node
// The web client's time budget (web/README.md): from pressing "Sign in" to the first usable view (the title, the
// channel list and the first view's content drawn), in Debian's Chromium against a deployment of its own, and that
// no request goes to another host. Needs a build (`node scripts/confab.mjs build`):
//   node bench/web-first-view.mjs [runs=10]
import { createRequire } from 'node:module';
import { launchFor } from './browser.mjs';
import { machine, record, startBenchStack } from './lib.mjs';

const require = createRequire(import.meta.url);
const devkit = require('@confab/devkit');
const runs = Number(process.argv[2] ?? 10);

const { stack, info } = await startBenchStack();
let browser;
try {
  const world = await devkit.createWorld(info);
  let origin;
  ({ browser, origin } = await launchFor(world));
  const foreign = new Set();
  const times = [];
  // Where the time goes: the requests between the click and the view, summed over the runs.
  const phases = new Map();
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    page.on('request', (request) => {
      const host = new URL(request.url()).host;
      if (host !== new URL(origin).host && !request.url().startsWith('data:')) foreign.add(host);
    });
    await page.goto(`${origin}/`);
    await page.fill('#email', 'hamlet@zulip.com');
    await page.fill('#password', devkit.DEV_PASSWORD);
    // Timed inside the page, by the page's clock: from the click on "Sign in" to the frame that first shows the
    // title and the channel list (Playwright's own waiting polls at growing intervals, up to 500 ms apart, and so
    // would add up to half a second to what it measures).
    await page.evaluate(() => {
      const marks = {};
      window.__firstView = marks;
      document.getElementById('signin').addEventListener('click', () => (marks.click = performance.now()), true);
      const observer = new MutationObserver(() => {
        if (!document.querySelector('#narrow-title') || !document.querySelector('[data-stream="Verona"]')) return;
        observer.disconnect();
        requestAnimationFrame(() => (marks.view = performance.now()));
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await page.click('#signin');
    await page.waitForFunction(() => window.__firstView.view !== undefined, null, { polling: 'raf' });
    const { click, view, entries } = await page.evaluate(() => ({
      ...window.__firstView,
      entries: performance
        .getEntriesByType('resource')
        .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd })),
    }));
    times.push(view - click);
    // Where the time goes: each request started after the click and finished before the view, its duration.
    for (const { name, start, end } of entries) {
      if (start < click || end > view) continue;
      const entry = phases.get(name) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += end - start;
      phases.set(name, entry);
    }
    await context.close();
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const line = `sign-in to first usable view, ${runs} runs: median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, worst ${times[times.length - 1].toFixed(0)} ms (budget 1000 ms); requests to other hosts: ${foreign.size === 0 ? 'none' : [...foreign].join(', ')}`;
  console.log(line);
  for (const [name, { count, ms }] of phases)
    console.log(`  ${name}: ${(ms / count).toFixed(0)} ms on average (${count} of ${runs} runs)`);
  record(
    `## Web client: first usable view (bench/web-first-view.mjs), ${new Date().toISOString().slice(0, 10)}\n\n${machine()}.\n\n- ${line}`,
  );
} finally {
  await browser?.close();
  await stack.stop({ cleanUp: true });
}
