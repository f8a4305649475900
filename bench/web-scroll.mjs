#!/usr/bin/env node
// The web client's scrolling budget (issue 45, web/README.md): a channel with 5,000 messages, all of them loaded
// into the message list (page after page, by scrolling to the top, as a reader does), then scrolled from the oldest
// to the newest; no long task (Chromium's Long Tasks API: a task over 50 ms) may happen while scrolling. Debian's
// Chromium against a deployment of its own. Needs a build (`node scripts/confab.mjs build`):
//   node bench/web-scroll.mjs [messages=5000]
// BENCH_RECORD=0: print only. BENCH_TRACE=<file.json>: a Chromium performance trace of the scroll, written there, and
// what the long tasks in it spent their time on (bench/trace-summary.mjs).
import { createRequire } from 'node:module';
import { launchFor } from './browser.mjs';
import { machine, record, startBenchStack } from './lib.mjs';
import { summarize } from './trace-summary.mjs';

const require = createRequire(import.meta.url);
const devkit = require('@confab/devkit');
const total = Number(process.argv[2] ?? 5000);
const SENDERS = ['hamlet', 'othello', 'cordelia', 'iago', 'prospero'];
const TOPICS = ['planning', 'release', 'lunch', 'questions'];
const TEXTS = [
  'A short line.',
  'A longer message with **bold**, `code` and a [link](https://example.com/docs) in it, as people write them.',
  '```\nconst answer = 42;\nconsole.log(answer);\n```',
  '- one\n- two\n- three',
  'Quoting:\n```quote\nWhat was said before.\n```\nAnd the reply.',
];

const { stack, info } = await startBenchStack();
let browser;
try {
  const world = await devkit.createWorld(info);
  // History: consecutive runs of one sender and topic, as a channel reads (blocks, continued messages).
  const started = Date.now();
  let next = 0;
  const sendSome = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const run = Math.floor(i / 3);
      const answer = await world.as(SENDERS[run % SENDERS.length]).post('/messages', {
        type: 'stream',
        to: 'Verona',
        topic: TOPICS[Math.floor(run / 7) % TOPICS.length],
        content: `${TEXTS[i % TEXTS.length]} (${i})`,
      });
      if (answer.status !== 200) throw new Error(`send ${i}: ${answer.status} ${answer.body.msg}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, sendSome));
  console.log(`[scroll] ${total} messages sent in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  let origin;
  ({ browser, origin } = await launchFor(world));
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.fill('#email', 'hamlet@zulip.com');
  await page.fill('#password', devkit.DEV_PASSWORD);
  await page.click('#signin');
  await page.click('[data-stream="Verona"]');
  await page.waitForSelector('ol.messages .message');
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: false });
  });

  // Loading: scroll to the top until the list holds every message (each arrival at the top asks for 50 older ones).
  const loadStarted = Date.now();
  const loadMark = await page.evaluate(() => performance.now());
  // The list says how many messages it holds (data-loaded); it renders only a window of them (render-window.ts).
  const loadedNow = () =>
    page.evaluate(() => {
      const list = document.querySelector('ol.messages');
      return Number(list.dataset.loaded ?? list.querySelectorAll('.message').length);
    });
  let loaded = await loadedNow();
  while (loaded < total) {
    await page.evaluate(() => {
      const list = document.querySelector('ol.messages');
      list.scrollTop = 0;
      list.dispatchEvent(new Event('scroll'));
    });
    // The next page has arrived when the list grew.
    await page.waitForFunction(
      (n) => {
        const list = document.querySelector('ol.messages');
        return Number(list.dataset.loaded ?? list.querySelectorAll('.message').length) > n;
      },
      loaded,
      { timeout: 30_000 },
    );
    loaded = await loadedNow();
  }
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  const loadTasks = await page.evaluate((mark) => window.__longTasks.filter((t) => t.start >= mark), loadMark);
  console.log(`[scroll] ${loaded} messages loaded in ${loadSeconds.toFixed(1)} s`);

  // Scrolling: from the oldest message to the newest, 120 px per frame, the frames' intervals measured in the page.
  const trace = process.env.BENCH_TRACE;
  if (trace)
    await browser.startTracing(page, {
      path: trace,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'],
    });
  const scroll = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const list = document.querySelector('ol.messages');
        list.scrollTop = 0;
        const start = performance.now();
        const frames = [];
        let last = start;
        let distance = 0;
        let was = list.scrollTop;
        const step = (now) => {
          frames.push(now - last);
          last = now;
          // What the page scrolled since the last frame (the list may move its window and keep the place meanwhile).
          was = list.scrollTop;
          list.scrollTop = was + 120;
          distance += list.scrollTop - was;
          if (list.scrollTop === was || list.scrollTop + list.clientHeight >= list.scrollHeight) {
            const tasks = window.__longTasks.filter((t) => t.start >= start);
            const shown = list.querySelectorAll('.message');
            resolve({
              ms: now - start,
              frames,
              tasks,
              height: distance,
              inPage: shown.length,
              lastShown: Number(shown[shown.length - 1]?.dataset.id),
            });
          } else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
  );
  if (trace) {
    await browser.stopTracing();
    console.log(summarize(trace));
  }
  const newest = await page.evaluate(async () => {
    const answer = await fetch(
      `/json/messages?anchor=newest&num_before=1&num_after=0&narrow=${encodeURIComponent('[]')}`,
    );
    return (await answer.json()).messages[0]?.id;
  });
  const frames = scroll.frames.slice(1).sort((a, b) => a - b);
  const at = (q) => frames[Math.min(frames.length - 1, Math.floor(q * frames.length))];
  const worstTask = Math.max(0, ...scroll.tasks.map((t) => t.duration));
  const worstLoadTask = Math.max(0, ...loadTasks.map((t) => t.duration));
  const lines = [
    `- ${loaded} messages loaded by scrolling to the top (pages of 50): ${loadSeconds.toFixed(1)} s; long tasks meanwhile: ${loadTasks.length} (worst ${worstLoadTask.toFixed(0)} ms)`,
    `- scrolled from the oldest to the newest${scroll.lastShown === newest ? '' : ' (NOT reached: the last message shown is not the newest)'} (${scroll.height.toLocaleString('en-US')} px, ${scroll.inPage} messages in the page at the end, 120 px a frame, ${frames.length} frames in ${(scroll.ms / 1000).toFixed(1)} s): frame interval p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, worst ${frames.at(-1).toFixed(1)} ms; **long tasks over 50 ms while scrolling: ${scroll.tasks.length}**${scroll.tasks.length ? ` (worst ${worstTask.toFixed(0)} ms)` : ''} (budget: none)`,
  ];
  console.log(lines.join('\n'));
  if (process.env.BENCH_RECORD !== '0')
    record(
      `## Web client: a channel of ${total.toLocaleString('en-US')} loaded messages, scrolled (bench/web-scroll.mjs), ${new Date().toISOString().slice(0, 10)}\n\n${machine()}; Chromium ${browser.version()}, 1200 × 800, headless.\n\n${lines.join('\n')}`,
    );
} finally {
  await browser?.close();
  await stack.stop({ cleanUp: true });
}
