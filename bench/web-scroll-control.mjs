#!/usr/bin/env node
// The control for bench/web-scroll.mjs: how many long tasks (over 50 ms) the machine itself causes while Chromium
// scrolls a static page of N plain list items (no script but the scroll loop), 120 px a frame, as web-scroll.mjs
// scrolls the client. On a shared, loaded machine compare web-scroll's count with this one's, taken at the same time.
//   node bench/web-scroll-control.mjs [items=5000]
import { chromium } from 'playwright-core';
const n = Number(process.argv[2] ?? 250);
const browser = await chromium.launch({
  executablePath: process.env.CONFAB_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});
const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
await page.setContent(
  `<ol id="l" style="height:700px;overflow-y:auto;margin:0">${Array.from({ length: n }, (_, i) => `<li style="padding:6px;border-bottom:1px solid #ddd"><b>Sender ${i % 5}</b> <time>10:${i % 60}</time><p>A longer message with <strong>bold</strong>, <code>code</code> and a <a href="#">link</a> in it (${i}).</p></li>`).join('')}</ol>`,
);
await page.evaluate(() => {
  window.__t = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) window.__t.push(e.duration);
  }).observe({ type: 'longtask' });
});
const r = await page.evaluate(
  () =>
    new Promise((resolve) => {
      const list = document.getElementById('l');
      let frames = 0;
      const t0 = performance.now();
      const step = () => {
        frames++;
        const b = list.scrollTop;
        list.scrollTop = b + 120;
        if (list.scrollTop === b) resolve({ frames, ms: performance.now() - t0, tasks: window.__t });
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    }),
);
console.log(
  `control: ${n} static items, ${r.frames} frames in ${(r.ms / 1000).toFixed(1)} s, long tasks ${r.tasks.length}, worst ${Math.max(0, ...r.tasks).toFixed(0)} ms; load ${(
    await import('node:os')
  )
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await browser.close();
