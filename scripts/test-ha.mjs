#!/usr/bin/env node
// npm run test:ha: Confab on three hosts (scripts/ha.mjs) under steady load, through one fault at a time, each
// followed by recovery: every process of the host holding the PostgreSQL primary SIGKILLed, then of the host leading
// most of the events' quorum queues, then of the third; one host cut off the network for 60 s; every Confab process of
// each host restarted in turn (a rolling upgrade). The load: channel and direct sends from several clients, event
// queues long-polled through the balancer (so served by every host), scheduled messages falling due during each
// fault, and uploads. Each fault's check is printed and the figures appended to bench/RESULTS.md:
//   - every send answered 200 is readable afterwards (lost: 0), and none is stored twice;
//   - every event queue received every message meant for it that was sent while it lived, exactly once, or was told
//     BAD_EVENT_QUEUE_ID and registered again (as Zulip's clients do);
//   - every scheduled message was delivered exactly once;
//   - every upload answered 200 can be downloaded;
//   - the longest time no send succeeded (targets: 30 s for a host kill, 5 s for a rolling restart).
// No manual step: the topology is made, faulted, healed and removed by this script (root).
//   node scripts/test-ha.mjs [--keep] [--reuse]  (--keep leaves the topology up at the end; --reuse runs on one
//   `npm run ha -- up` made)
//   CONFAB_HA_FAULTS=kill-pg,kill-rabbit,kill-third,partition,rolling   (the default: all, in that order)
//   node scripts/test-ha.mjs e2e [--no-browser] [--keep] [--reuse] [files…]   the end-to-end suite against the hosts
import { appendFileSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ha from './ha.mjs';
import { runE2e } from './test-ha-e2e.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => console.log(`[test:ha] ${new Date().toISOString().slice(11, 19)} ${line}`);
const KEEP = process.argv.includes('--keep');
// --reuse: run against a topology `npm run ha -- up` already made (development; the default makes a fresh one).
const REUSE = process.argv.includes('--reuse');
const FAULTS = (process.env.CONFAB_HA_FAULTS ?? 'kill-pg,kill-rabbit,kill-third,partition,rolling').split(',');
const PASSWORD = process.env.CONFAB_DEV_PASSWORD ?? 'confab-dev';

let BASE;

/** One request with a time limit; a network failure or a timeout is status 0. */
async function call(user, method, path, params = {}, { timeoutMs = 15_000, form, raw } = {}) {
  // Files are read at their own path (/user_uploads/<realm>/…); everything else is under /api/v1.
  const url = new URL(path.startsWith('/user_uploads/') ? path : `/api/v1${path}`, BASE);
  const headers = { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` };
  let body;
  if (form) body = form;
  else if (method === 'GET')
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  else
    body = new URLSearchParams(
      Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  try {
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    if (raw) return { status: response.status, text: await response.text() };
    const json = await response.json().catch(() => ({}));
    return { status: response.status, body: json };
  } catch (err) {
    return { status: 0, body: { msg: err.message } };
  }
}

async function login(email) {
  const response = await fetch(new URL('/api/v1/fetch_api_key', BASE), {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const body = await response.json();
  if (body.result !== 'success') throw new Error(`cannot log in as ${email}: ${JSON.stringify(body)}`);
  return { email, apiKey: body.api_key, id: body.user_id };
}

// ---------------------------------------------------------------------------------------------------------------
// The load

class Load {
  constructor(users, channel) {
    this.users = users;
    this.channel = channel;
    /** Every send: its token, who sent it to whom, when it started and ended, status, id. */
    this.sends = [];
    /** Times of successful send answers. */
    this.okTimes = [];
    this.uploads = [];
    this.queues = [];
    this.running = true;
    this.loops = [];
    this.seq = 0;
  }

  start() {
    const { hamlet, othello, iago, cordelia, prospero, aaron } = this.users;
    const channelSender = (user) => async () => {
      const token = `ha-${user.email.split('@')[0]}-${this.seq++}`;
      const recipients = 'channel';
      return this.send(user, token, recipients, {
        type: 'stream',
        to: String(this.channel),
        topic: 'ha load',
        content: token,
        // As Zulip's clients send them: a retried send of the same ids is the same message.
        queue_id: `ha-${user.email}`,
        local_id: token,
      });
    };
    const directSender = (from, to) => async () => {
      const token = `ha-${from.email.split('@')[0]}-${this.seq++}`;
      return this.send(from, token, [from.id, to.id], {
        type: 'direct',
        to: JSON.stringify([to.id]),
        content: token,
        queue_id: `ha-${from.email}`,
        local_id: token,
      });
    };
    const loops = [
      channelSender(hamlet),
      channelSender(othello),
      directSender(iago, hamlet),
      directSender(cordelia, aaron),
    ];
    for (const step of loops) this.loops.push(this.forever(step, 150));
    this.loops.push(this.forever(() => this.upload(prospero), 2000));
    for (const user of [hamlet, hamlet, othello, iago, aaron, prospero]) this.loops.push(this.poll(user));
  }

  async forever(step, pauseMs) {
    while (this.running) {
      await step();
      await sleep(pauseMs);
    }
  }

  async send(user, token, recipients, params) {
    const record = {
      token,
      sender: user.id,
      recipients,
      started: Date.now(),
      ended: 0,
      status: 0,
      id: undefined,
      tries: 0,
    };
    this.sends.push(record);
    // A client retries a failed send, with the same ids, until it is answered (a 4xx other than a 429 ends it).
    for (;;) {
      record.tries += 1;
      const response = await call(user, 'POST', '/messages', params, { timeoutMs: 20_000 });
      record.status = response.status;
      if (response.status === 200) {
        record.id = response.body.id;
        record.ended = Date.now();
        this.okTimes.push(record.ended);
        return;
      }
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        record.ended = Date.now();
        record.error = response.body;
        return;
      }
      if (!this.running) return;
      await sleep(500);
    }
  }

  async upload(user) {
    const form = new FormData();
    const text = `upload ${this.seq++} ${Date.now()}`;
    form.append('file', new Blob([text], { type: 'text/plain' }), 'ha.txt');
    const response = await call(user, 'POST', '/user_uploads', {}, { form, timeoutMs: 20_000 });
    if (response.status === 200) this.uploads.push({ user, url: response.body.url, text });
  }

  /** A long-polling event queue; re-registers when told BAD_EVENT_QUEUE_ID, as Zulip's clients do. */
  async poll(user) {
    let queue;
    while (this.running) {
      if (!queue) {
        const registered = await call(user, 'POST', '/register', { event_types: ['message'] }, { timeoutMs: 20_000 });
        if (registered.status !== 200) {
          await sleep(1000);
          continue;
        }
        queue = {
          user,
          id: registered.body.queue_id,
          last: registered.body.last_event_id,
          from: Date.now(),
          to: undefined,
          got: [],
          bad: false,
        };
        this.queues.push(queue);
      }
      const response = await call(
        user,
        'GET',
        '/events',
        { queue_id: queue.id, last_event_id: String(queue.last) },
        { timeoutMs: 90_000 },
      );
      if (response.status === 200) {
        for (const event of response.body.events ?? []) {
          queue.last = Math.max(queue.last, event.id);
          if (event.type === 'message') queue.got.push(event.message.content.replace(/<[^>]+>/g, '').trim());
        }
        queue.to = Date.now();
      } else if (response.body?.code === 'BAD_EVENT_QUEUE_ID') {
        queue.bad = true;
        queue.to = Date.now();
        queue = undefined;
      } else {
        await sleep(500);
      }
    }
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

/** Every message in the channel topic and in the direct conversations, by content token (duplicates kept). */
async function storedTokens(users, channel) {
  const tokens = new Map();
  const read = async (user, narrow) => {
    let anchor = 'newest';
    for (;;) {
      const page = await call(
        user,
        'GET',
        '/messages',
        { anchor, num_before: '1000', num_after: '0', apply_markdown: 'false', narrow },
        { timeoutMs: 60_000 },
      );
      if (page.status !== 200) throw new Error(`reading history: ${page.status} ${JSON.stringify(page.body)}`);
      const messages = page.body.messages ?? [];
      for (const m of messages) {
        if (String(anchor) === String(m.id)) continue;
        const list = tokens.get(m.content) ?? [];
        list.push(m.id);
        tokens.set(m.content, list);
      }
      if (page.body.found_oldest || messages.length === 0) return;
      anchor = String(messages[0].id);
    }
  };
  await read(users.hamlet, [
    { operator: 'channel', operand: channel },
    { operator: 'topic', operand: 'ha load' },
  ]);
  await read(users.hamlet, [{ operator: 'dm', operand: [users.iago.id] }]);
  await read(users.aaron, [{ operator: 'dm', operand: [users.cordelia.id] }]);
  for (const [token, ids] of tokens) tokens.set(token, [...new Set(ids)]);
  return tokens;
}

function check(load, stored, scheduled, windows) {
  const answered = load.sends.filter((s) => s.status === 200);
  const lost = answered.filter((s) => !stored.has(s.token));
  const twice = [...stored].filter(([, ids]) => ids.length > 1).map(([token]) => token);
  // Who may read what: channel messages reach every subscriber's queue; a direct message its two participants.
  const meantFor = (send, user) => send.recipients === 'channel' || send.recipients.includes(user.id);
  const queueProblems = [];
  for (const q of load.queues) {
    const counts = new Map();
    for (const token of q.got) counts.set(token, (counts.get(token) ?? 0) + 1);
    const dup = [...counts].filter(([t, n]) => n > 1 && t.startsWith('ha-')).map(([t]) => t);
    const end = q.to ?? 0;
    // Sent (started and answered) while this queue lived, and meant for its user: each must be there once.
    const expected = answered.filter((s) => s.started > q.from && s.ended < end - 1000 && meantFor(s, q.user));
    const missing = expected.filter((s) => !counts.has(s.token)).map((s) => s.token);
    if (dup.length || missing.length)
      queueProblems.push({ queue: q.id, user: q.user.email, bad: q.bad, missing, duplicated: dup });
  }
  const gaps = windows.map((w) => ({ ...w, gapMs: longestGap(load.okTimes, w.from, w.to) }));
  return {
    sends: load.sends.length,
    answered: answered.length,
    retried: load.sends.reduce((n, s) => n + s.tries - 1, 0),
    lost,
    twice,
    queues: load.queues.length,
    badQueue: load.queues.filter((q) => q.bad).length,
    queueProblems,
    scheduled,
    gaps,
  };
}

function longestGap(times, from, to) {
  const inside = times.filter((t) => t >= from && t <= to).sort((a, b) => a - b);
  let gap = 0;
  let previous = from;
  for (const t of inside) {
    gap = Math.max(gap, t - previous);
    previous = t;
  }
  return Math.max(gap, to - previous);
}

// ---------------------------------------------------------------------------------------------------------------
// Faults

async function scheduleDuring(user, channel, tag, count, fromSeconds, toSeconds) {
  const now = Math.floor(Date.now() / 1000);
  const due = [];
  for (let i = 0; i < count; i++) {
    const at = now + fromSeconds + Math.floor(((toSeconds - fromSeconds) * i) / count);
    for (;;) {
      const r = await call(user, 'POST', '/scheduled_messages', {
        type: 'stream',
        to: String(channel),
        topic: `ha scheduled`,
        content: `${tag} ${i}`,
        scheduled_delivery_timestamp: String(at),
      });
      if (r.status === 200) break;
      await sleep(500);
    }
    due.push({ content: `${tag} ${i}`, at });
  }
  return due;
}

async function scheduledDelivered(user, channel, due) {
  const page = await call(
    user,
    'GET',
    '/messages',
    {
      anchor: 'newest',
      num_before: '1000',
      num_after: '0',
      apply_markdown: 'false',
      narrow: [
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: 'ha scheduled' },
      ],
    },
    { timeoutMs: 60_000 },
  );
  const counts = new Map();
  for (const m of page.body.messages ?? []) counts.set(m.content, (counts.get(m.content) ?? 0) + 1);
  return due.map((d) => ({ ...d, count: counts.get(d.content) ?? 0 }));
}

/** Waits until every host serves again and the clusters are whole. */
async function recovered(timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const primary = await ha.pgPrimary();
    const ok =
      primary !== undefined &&
      (await fetch(new URL('/api/v1/server_settings', BASE)).then(
        (r) => r.status === 200,
        () => false,
      ));
    if (ok) return;
    if (Date.now() > deadline) throw new Error('not recovered in time');
    await sleep(2000);
  }
}

async function main() {
  const started = Date.now();
  BASE = REUSE ? `http://127.0.0.1:${ha.HA.port}` : await ha.up();
  const results = [];
  try {
    const names = ['hamlet', 'othello', 'iago', 'cordelia', 'prospero', 'aaron'];
    const users = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await login(`${n}@zulip.com`)])));
    const verona = (await call(users.hamlet, 'GET', '/get_stream_id', { stream: 'Verona' })).body.stream_id;
    // aaron joins Verona if he is not in it, so that all six queues hear the channel's messages.
    for (const u of Object.values(users))
      await call(u, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] });
    const load = new Load(users, verona);
    load.start();
    log('load running: 4 senders, 6 long-polling queues, uploads');
    await sleep(20_000);
    const scheduled = [];
    const windows = [];
    const fault = async (name, target, act, recover) => {
      const tag = `sched-${name}`;
      const due = await scheduleDuring(users.iago, verona, tag, 10, 8, 40);
      scheduled.push(...due);
      log(`${name}: ${target}`);
      const from = Date.now();
      await act();
      await recover();
      await recovered();
      // Let the load run on the healed system for a while: the window ends when it has served for 20 s.
      await sleep(20_000);
      windows.push({ name, target, from, to: Date.now() });
      log(`${name}: recovered after ${Math.round((Date.now() - from) / 1000)} s`);
    };
    const killed = new Set();
    const state = () => JSON.parse(readFileSync(join(ha.HA.dir, 'state.json'), 'utf8'));
    for (const f of FAULTS) {
      if (f === 'kill-pg') {
        const h = await ha.pgPrimary();
        killed.add(h.name);
        await fault(
          'kill PostgreSQL primary host',
          h.name,
          () => ha.kill(h.name),
          async () => {
            await sleep(30_000);
            await ha.revive(h.name);
          },
        );
      } else if (f === 'kill-rabbit') {
        const leaders = ha.rabbitLeaders(state());
        const count = {};
        for (const [queue, leader] of Object.entries(leaders))
          if (queue.includes('events')) count[leader] = (count[leader] ?? 0) + 1;
        const ranked = Object.entries(count).sort((a, b) => b[1] - a[1]);
        const name = ranked[0]?.[0] ?? 'ha2';
        killed.add(name);
        await fault(
          'kill RabbitMQ events leader host',
          `${name} (${ranked.map(([h, n]) => `${h}: ${n}`).join(', ')})`,
          () => ha.kill(name),
          async () => {
            await sleep(30_000);
            await ha.revive(name);
          },
        );
      } else if (f === 'kill-third') {
        const name = ha.HA.hosts.map((h) => h.name).find((n) => !killed.has(n)) ?? 'ha3';
        killed.add(name);
        await fault(
          'kill a third host',
          name,
          () => ha.kill(name),
          async () => {
            await sleep(30_000);
            await ha.revive(name);
          },
        );
      } else if (f === 'partition') {
        const name = 'ha3';
        await fault(
          'partition a host for 60 s',
          name,
          () => ha.partition(name),
          async () => {
            await sleep(60_000);
            ha.heal(name);
          },
        );
      } else if (f === 'rolling') {
        await fault(
          'rolling restart of every host',
          'ha1, ha2, ha3',
          async () => {
            for (const h of ha.HA.hosts) for (const p of ha.confabProcessNames()) await ha.restartProcess(h.name, p);
          },
          async () => undefined,
        );
      }
    }
    await sleep(10_000);
    log('stopping the load, reading everything back');
    await load.stop();
    await sleep(5000);
    const stored = await storedTokens(users, verona);
    const delivered = await scheduledDelivered(users.iago, verona, scheduled);
    const downloads = await Promise.all(
      load.uploads.map(async (u) => {
        const r = await call(u.user, 'GET', u.url, {}, { raw: true, timeoutMs: 30_000 });
        return r.status === 200 && r.text === u.text;
      }),
    );
    const outcome = check(load, stored, delivered, windows);
    outcome.uploads = { answered: load.uploads.length, readable: downloads.filter(Boolean).length };
    results.push(outcome);
    report(outcome, Date.now() - started);
  } finally {
    if (!KEEP) {
      log('removing the topology');
      ha.down();
    }
  }
  const r = results[0];
  const failed =
    r.lost.length > 0 ||
    r.twice.length > 0 ||
    r.queueProblems.length > 0 ||
    r.scheduled.some((s) => s.count !== 1) ||
    r.uploads.readable !== r.uploads.answered;
  process.exit(failed ? 1 : 0);
}

function report(r, elapsedMs) {
  const target = (name) => (name.startsWith('rolling') ? 5 : name.startsWith('partition') ? 30 : 30);
  const rows = r.gaps.map(
    (g) =>
      `| ${g.name} | ${g.target} | ${(g.gapMs / 1000).toFixed(1)} s | ${target(g.name)} s | ${g.gapMs <= target(g.name) * 1000 ? 'met' : '**missed**'} |`,
  );
  const scheduledOnce = r.scheduled.filter((s) => s.count === 1).length;
  const lines = [
    `sends: ${r.sends}, answered 200: ${r.answered} (after ${r.retried} failed attempts retried with the same ids), lost: ${r.lost.length}, stored twice: ${r.twice.length}`,
    `event queues: ${r.queues} (${r.badQueue} told BAD_EVENT_QUEUE_ID and registered again), with a missing or doubled message: ${r.queueProblems.length}`,
    `scheduled messages: ${r.scheduled.length}, delivered exactly once: ${scheduledOnce}`,
    `uploads answered 200: ${r.uploads.answered}, readable afterwards: ${r.uploads.readable}`,
  ];
  for (const line of lines) log(line);
  if (r.queueProblems.length) log(`queue problems: ${JSON.stringify(r.queueProblems).slice(0, 2000)}`);
  if (r.lost.length)
    log(
      `lost: ${r.lost
        .map((s) => s.token)
        .slice(0, 20)
        .join(', ')}`,
    );
  if (r.twice.length) log(`twice: ${r.twice.slice(0, 20).join(', ')}`);
  const table = [
    '| fault | host | longest time without a successful send | target | |',
    '|---|---|---:|---:|---|',
    ...rows,
  ];
  console.log(table.join('\n'));
  appendFileSync(
    join(ROOT, 'bench', 'RESULTS.md'),
    `\n## Three hosts, one lost at a time (scripts/test-ha.mjs, ${new Date().toISOString().slice(0, 10)})\n\n` +
      `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, shared with other work; ${Math.round(elapsedMs / 60000)} min in all. ` +
      'Three network namespaces on one machine, each with etcd, Patroni/PostgreSQL (synchronous), RabbitMQ (quorum queues), ' +
      'Redis with Sentinel, HAProxy and one of every Confab process; the load through a front HAProxy: 4 senders (channel and ' +
      'direct, each retrying a failed send with the same queue_id/local_id), 6 long-polling queues, uploads, 10 scheduled ' +
      'messages due during each fault.\n\n' +
      lines.map((l) => `- ${l}`).join('\n') +
      '\n\n' +
      table.join('\n') +
      '\n',
  );
}

// `npm run test:ha -- e2e`: the end-to-end suite against the three hosts instead of the faults (test-ha-e2e.mjs).
const start = process.argv[2] === 'e2e' ? () => runE2e(process.argv.slice(3)).then((code) => process.exit(code)) : main;

start().catch((err) => {
  console.error(`[test:ha] ${err.stack ?? err.message}`);
  try {
    if (!KEEP) ha.down();
  } catch {
    /* nothing left */
  }
  process.exit(1);
});
