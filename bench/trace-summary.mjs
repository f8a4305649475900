#!/usr/bin/env node
// What the long tasks of a Chromium performance trace spent their time on: the page's main thread's tasks over
// 50 ms, and inside them the time of each kind of event on its own (without the events nested in it): script
// ("FunctionCall", "V8.Execute"…), style ("UpdateLayoutTree"), layout ("Layout"), paint, and the rest.
// bench/web-scroll.mjs writes such a trace with BENCH_TRACE=<file>; or: node bench/trace-summary.mjs <trace.json>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const LONG_MS = 50;

/** The complete events (ph X, or B/E pairs) of one thread, as {name, ts, end} in microseconds, by start. */
function spansOf(events) {
  const spans = [];
  const open = [];
  for (const e of events) {
    if (e.ph === 'X' && typeof e.dur === 'number')
      spans.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ name: b.name, ts: b.ts, end: e.ts });
    }
  }
  return spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
}

/** Self time per event name of the spans inside [from, to), nested by time. */
function selfTimes(spans, from, to) {
  const self = new Map();
  const stack = [];
  const add = (name, us) => self.set(name, (self.get(name) ?? 0) + us);
  for (const s of spans) {
    if (s.ts < from || s.ts >= to) continue;
    while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
    const parent = stack[stack.length - 1];
    const dur = Math.min(s.end, to) - s.ts;
    add(s.name, dur);
    if (parent) add(parent.name, -dur);
    stack.push(s);
  }
  return self;
}

export function summarize(file) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  // The page's main thread: the renderer's CrRendererMain with the most events.
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const byThread = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (names.some((n) => n.pid === e.pid && n.tid === e.tid)) {
      if (!byThread.has(key)) byThread.set(key, []);
      byThread.get(key).push(e);
    }
  }
  const main = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const spans = spansOf(main);
  const isTask = (s) => s.name === 'RunTask' || s.name === 'ThreadControllerImpl::RunTask';
  const tasks = spans.filter((s) => isTask(s) && s.end - s.ts > LONG_MS * 1000);
  // On a busy machine a task's wall time includes the time its thread waited for a core; its thread time does not:
  // the tasks whose own CPU time is over 50 ms are the ones that would be long on a quiet machine.
  const allTasks = spans.filter(isTask);
  const cpuLong = allTasks.filter((s) => s.cpu > LONG_MS * 1000);
  const cpuAll = allTasks.reduce((sum, s) => sum + s.cpu, 0);
  // Tasks nested in tasks count once.
  const top = tasks.filter((t, i) => !tasks.some((o, j) => j !== i && o.ts <= t.ts && o.end >= t.end && o !== t));
  const total = new Map();
  for (const t of top)
    for (const [name, us] of selfTimes(spans, t.ts, t.end)) total.set(name, (total.get(name) ?? 0) + us);
  const ms = (us) => (us / 1000).toFixed(0);
  const all = top.reduce((sum, t) => sum + t.end - t.ts, 0);
  const lines = [
    `[trace] main thread: ${allTasks.length} tasks, ${ms(cpuAll)} ms of CPU; ${cpuLong.length} of them over ${LONG_MS} ms of CPU (the most CPU of one: ${ms(Math.max(0, ...allTasks.map((s) => s.cpu)))} ms)`,
    `[trace] ${top.length} tasks over ${LONG_MS} ms of wall time, ${ms(all)} ms in all:`,
  ];
  for (const [name, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 14))
    if (us > 0) lines.push(`[trace]   ${name}: ${ms(us)} ms (${((100 * us) / all).toFixed(0)} %)`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(summarize(process.argv[2]));
