// How many people one deployment carries: thousands of simulated Zulip clients in this one process (keep-alive
// connections, no process per user) against a stack of its own on private PostgreSQL, Redis and RabbitMQ (as
// cpu-per-op.mjs), ramped up in steps. Each simulated user does what the Flutter app does, at its cadences: /register
// with the app's parameters and client_capabilities, one long poll always open, presence every 60 s, opening a
// conversation (50 messages around the first unread, then marking the unread read) about 6.5 times per post, a post
// about every 6 minutes with typing notifications around it, a reaction every other post, a small upload now and
// then. Per step it records p50/p99/average of every request type, the delay from a send's start to each
// recipient's poll answer, errors, and the CPU of every process (from /proc); it stops at the first step that breaks
// Mattermost's thresholds (p99 of a request type > 2 s, average > 100 ms, errors > 0.025 %, delivery p99 > 2 s) and
// reports the last good one.
//
// Usage: node bench/capacity.mjs [options]
//   --step N         users added per step (default 1000)
//   --max N          users of the last step (default 10000; also the organization's size)
//   --seconds S      length of each step in seconds, the ramp of its new users included (default 300)
//   --compress F     time compression: every cadence runs F times faster (default 1; F = 10 makes a short run
//                    exercise the cadences; the request rate is then that of F times as many users)
//   --label TEXT     written into the heading of the recorded result
//   --seed N         the organization's random shape (default 1)
//   --register-cost N  only build the organization and measure the CPU of N registers of its users, two at a time
//                    (the cost of a register against the organization's size; with BENCH_PROFILE, where it goes)
//   --storm          after the last step, restart the gateway and the events service at once (an upgrade) and measure
//                    the reconnect storm: how long until every connected client has a working event queue again
//                    (its poll delivers a probe message sent right after the restart, or it registered anew after
//                    Zulip's BAD_EVENT_QUEUE_ID), and what else failed or slowed meanwhile; no step ends the run early
//   --polls-only     the simulated clients only register, long-poll and report presence (no posts, no conversations
//                    opened): the storm of many connected clients without the traffic they would make
// BENCH_RECORD=0: do not append to RESULTS.md. BENCH_PROFILE=<dir>: every process writes a CPU profile there.
// BENCH_STATEMENTS=1 (with --register-cost): PostgreSQL's statements per register, from pg_stat_statements.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import devkit from '@confab/devkit';
import { processRoots, snapshot } from './cpu.mjs';
import {
  FLUTTER_REGISTER as REGISTER,
  machine,
  percentile,
  record,
  startPrivateBenchStack,
  topStatements,
} from './lib.mjs';

const { values: opts } = parseArgs({
  options: {
    step: { type: 'string', default: '1000' },
    max: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '300' },
    compress: { type: 'string', default: '1' },
    label: { type: 'string', default: '' },
    seed: { type: 'string', default: '1' },
    'register-cost': { type: 'string', default: '0' },
    storm: { type: 'boolean', default: false },
    'polls-only': { type: 'boolean', default: false },
  },
});
/** --register-cost N: build the organization, then measure N registers of its users (CPU per process), no ramp. */
const REGISTER_COST = Number(opts['register-cost']);
const STEP = Number(opts.step);
const MAX = Number(opts.max);
const STEP_SECONDS = Number(opts.seconds);
const COMPRESS = Number(opts.compress);
const LOAD_AT_START = loadavg();

/** Mattermost's ceiling thresholds (their load-test tool's defaults). */
const THRESHOLDS = { p99Ms: 2000, averageMs: 100, errorRate: 0.00025, deliveryP99Ms: 2000 };

/** Real-time cadences of one user (seconds); divided by COMPRESS. */
const CADENCE = {
  presence: 60,
  post: 360,
  // Mattermost's mix weighs channel switches about 6.5 per post.
  open: 360 / 6.5,
  reaction: 720,
  upload: 360 * 40,
};

// ---- a seeded random source, so that one seed gives one organization ----
let rngState = Number(opts.seed) >>> 0 || 1;
function random() {
  // mulberry32
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const sampleOf = (list, n) => {
  const copy = [...list];
  for (let i = 0; i < Math.min(n, copy.length); i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
};

// ---- HTTP: one keep-alive agent for every simulated user ----
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096 });
const USER_AGENT = 'ZulipFlutter/30.0.260 (Android 14)';
/**
 * Zulip's encoding: strings as they are, everything else as JSON. (The Flutter app JSON-encodes its /register
 * parameters, strings included, and sends a message's topic and content raw: FLUTTER_REGISTER in lib.mjs carries its one string
 * already encoded.)
 */
const appForm = (params) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

let gatewayUrl;
let host;

/** One request; resolves { status, body } (never rejects: a network error is status 0). */
function call(user, method, path, params = {}, { multipart } = {}) {
  const url = new URL(`/api/v1${path}`, gatewayUrl);
  const headers = { host, 'user-agent': USER_AGENT };
  if (user) headers.authorization = user.basic;
  let payload;
  if (multipart) {
    payload = multipart.body;
    headers['content-type'] = multipart.type;
  } else if (method === 'GET') url.search = appForm(params);
  else {
    payload = Buffer.from(appForm(params));
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (payload) headers['content-length'] = payload.length;
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let body = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          // not JSON: the status tells
        }
        resolve({ status: res.statusCode, body });
      });
      res.on('error', (err) => resolve({ status: 0, body: { msg: err.message } }));
    });
    req.on('error', (err) => resolve({ status: 0, body: { msg: err.message } }));
    if (payload) req.write(payload);
    req.end();
  });
}

// ---- what one step records ----
let stats;
function newStats() {
  return { requests: new Map(), delivery: [], errorSamples: new Map(), badQueue: 0, sent: 0, polls: 0 };
}
function note(type, ms, ok, status, msg) {
  let s = stats.requests.get(type);
  if (!s) stats.requests.set(type, (s = { latencies: [], errors: 0 }));
  s.latencies.push(ms);
  if (!ok) {
    s.errors += 1;
    const key = `${type} ${status} ${msg ?? ''}`.slice(0, 160);
    stats.errorSamples.set(key, (stats.errorSamples.get(key) ?? 0) + 1);
  }
}
/** A timed request of a recorded type; resolves the body of a 200, or undefined. */
async function timed(type, user, method, path, params, options) {
  const started = performance.now();
  const { status, body } = await call(user, method, path, params, options);
  note(type, performance.now() - started, status === 200, status, body?.msg);
  return status === 200 ? body : undefined;
}

// ---- the organization ----
/** Channel sizes from 5 to min(2000, users), most of them small, until the users hold ~12 memberships each. */
function channelPlan(userCount) {
  const largest = Math.min(2000, userCount);
  const sizes = [largest]; // everyone's channel (an organization's "general")
  let memberships = largest;
  while (memberships < 12 * userCount) {
    const u = random();
    // Log-uniform on [5, largest], skewed towards small channels.
    const size = Math.max(5, Math.round(Math.exp(Math.log(5) + (Math.log(largest) - Math.log(5)) * u ** 2.5)));
    sizes.push(size);
    memberships += size;
  }
  return sizes;
}

async function createOrganization(info) {
  const world = await devkit.createWorld(info);
  host = world.host;
  const owner = world.user('desdemona');
  const ownerUser = { basic: basicOf(owner.email, owner.apiKey) };
  const users = [];
  const started = Date.now();
  // Users through the API, as an administrator adds them (each one a password hash: a few at a time).
  let next = 0;
  const createOne = async () => {
    for (;;) {
      const i = next++;
      if (i >= MAX) return;
      const email = `sim${i}@example.com`;
      let created;
      for (let attempt = 0; attempt < 5 && !created; attempt++) {
        const r = await call(ownerUser, 'POST', '/users', {
          email,
          password: `Simulated-user-${i}-password`,
          full_name: `Simulated User ${i}`,
        });
        if (r.status === 200) created = r.body;
        else if (attempt === 4) throw new Error(`creating ${email}: ${r.status} ${r.body.msg}`);
        else await new Promise((res) => setTimeout(res, 500));
      }
      const key = await call(undefined, 'POST', '/dev_fetch_api_key', { username: email });
      if (key.status !== 200) throw new Error(`API key of ${email}: ${key.status} ${key.body.msg}`);
      users[i] = {
        index: i,
        id: created.user_id,
        email,
        basic: basicOf(email, key.body.api_key),
        channels: [],
        dms: [],
      };
      if (i % 500 === 0) console.log(`[capacity] users: ${i}/${MAX}`);
    }
  };
  await Promise.all(Array.from({ length: 6 }, createOne));
  console.log(`[capacity] ${MAX} users created in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // Channels of 5 to 2,000 members.
  const sizes = channelPlan(MAX);
  const channels = [];
  for (let c = 0; c < sizes.length; c++) {
    const members = c === 0 ? users.slice(0, sizes[0]) : sampleOf(users, sizes[c]);
    const name = c === 0 ? 'everyone' : `channel ${c} (${sizes[c]})`;
    // Subscribing thousands at once is one request an administrator makes; in parts of 500 principals.
    for (let from = 0; from < members.length; from += 500) {
      const principals = members.slice(from, from + 500).map((u) => u.id);
      // Messaging may still be applying the new users' events: a 503, or (more than 100 of the principals unknown to
      // it yet, which it does not fetch one by one) Zulip's UNAUTHORIZED_PRINCIPAL, is tried again a second later.
      let r;
      for (let attempt = 1; ; attempt++) {
        r = await call(ownerUser, 'POST', '/users/me/subscriptions', {
          subscriptions: [{ name, description: `Simulated channel of ${sizes[c]}` }],
          principals,
        });
        const lagging = r.status === 503 || (r.status === 403 && r.body.code === 'UNAUTHORIZED_PRINCIPAL');
        if (!lagging || attempt === 120) break;
        await sleep(1000);
      }
      if (r.status !== 200) throw new Error(`channel ${name}: ${r.status} ${r.body.msg}`);
    }
    const id = (await call(ownerUser, 'GET', '/get_stream_id', { stream: name })).body.stream_id;
    const channel = { id, name, size: sizes[c], members: members.map((u) => u.index) };
    channels.push(channel);
    for (const u of members) u.channels.push(channel);
  }
  // Direct messages: each user talks with a few people, and is in a group conversation of 3 to 5.
  for (const u of users) {
    for (const other of sampleOf(users, 3)) if (other !== u) u.dms.push([u.index, other.index]);
  }
  for (let g = 0; g + 3 <= users.length; g += 4) {
    const group = users.slice(g, g + 3 + Math.floor(random() * 3)).map((u) => u.index);
    for (const i of group) users[i].dms.push(group);
  }
  const memberships = channels.reduce((a, c) => a + c.size, 0);
  const shape = {
    users: MAX,
    channels: channels.length,
    sizes: `${Math.min(...sizes)}–${Math.max(...sizes)}`,
    median: [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)],
    perUser: (memberships / MAX).toFixed(1),
  };
  console.log(`[capacity] organization: ${JSON.stringify(shape)}`);
  return { users, channels, shape };
}

const basicOf = (email, key) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

// ---- one simulated user ----
/** What the Flutter app sends to /register (lib/api/route/events.dart; tests/e2e/flutter_app.e2e.spec.ts). */
const TOPICS = ['planning', 'lunch', 'release', 'questions', 'random'];
const EMOJI = ['octopus', 'thumbs_up', 'tada', 'heart', 'smile'];

/** Sends in flight or delivered: token -> { started, expected: Set of user indexes, received }. */
const sends = new Map();
let nextToken = 0;
let running = true;
/** Users with a working queue, by index. */
const connected = new Set();
let org;

function conversationOf(user) {
  const r = random();
  if (r < 0.7 && user.channels.length > 0) {
    const channel = pick(user.channels);
    return { kind: 'channel', channel, topic: pick(TOPICS) };
  }
  const members = pick(user.dms.length > 0 ? user.dms : [[user.index]]);
  return { kind: 'dm', members };
}
const narrowOf = (conv) =>
  conv.kind === 'channel'
    ? [
        { operator: 'channel', operand: conv.channel.id },
        { operator: 'topic', operand: conv.topic },
      ]
    : [{ operator: 'dm', operand: conv.members.map((i) => org.users[i].id) }];

async function register(user) {
  const body = await timed('POST /register', user, 'POST', '/register', REGISTER);
  if (!body) return false;
  user.queueId = body.queue_id;
  user.lastEventId = body.last_event_id;
  connected.add(user.index);
  recoveredAfterStorm(user);
  return true;
}

async function poll(user) {
  while (running) {
    const started = performance.now();
    const { status, body } = await call(user, 'GET', '/events', {
      queue_id: user.queueId,
      last_event_id: user.lastEventId,
    });
    if (!running) return;
    const now = performance.now();
    stats.polls += 1;
    if (status !== 200) {
      if (body?.code === 'BAD_EVENT_QUEUE_ID') {
        // What every Zulip client does: register again.
        stats.badQueue += 1;
        connected.delete(user.index);
        await registerWithBackoff(user);
        continue;
      }
      note('GET /events', now - started, false, status, body?.msg);
      await sleep(1000);
      continue;
    }
    note('GET /events', now - started, true);
    for (const event of body.events ?? []) {
      user.lastEventId = Math.max(user.lastEventId, event.id);
      if (event.type === 'message' && /\bprobe\d+\b/.test(event.message?.content ?? '')) recoveredAfterStorm(user);
      if (event.type === 'message') {
        const token = /\bsim(\d+)\b/.exec(event.message?.content ?? '')?.[1];
        const send = token && sends.get(Number(token));
        if (send) {
          stats.delivery.push(now - send.started);
          send.received += 1;
        }
        user.recent.push(event.message.id);
        if (user.recent.length > 20) user.recent.shift();
      }
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Runs `action` every `seconds` (compressed), starting at a random point of the first interval. */
function every(seconds, action) {
  const ms = (seconds * 1000) / COMPRESS;
  const loop = async () => {
    await sleep(random() * ms);
    while (running) {
      const started = Date.now();
      await action();
      // Exponential spacing around the mean, as independent people are.
      const wait = -Math.log(1 - random()) * ms - (Date.now() - started);
      await sleep(Math.max(0, wait));
    }
  };
  void loop();
}

async function openConversation(user) {
  const conv = conversationOf(user);
  const body = await timed('GET /messages', user, 'GET', '/messages', {
    anchor: 'first_unread',
    num_before: 25,
    num_after: 25,
    narrow: narrowOf(conv),
    apply_markdown: true,
    client_gravatar: false,
    allow_empty_topic_name: true,
  });
  if (!body) return;
  const unread = (body.messages ?? []).filter((m) => !(m.flags ?? []).includes('read')).map((m) => m.id);
  for (const m of body.messages ?? []) user.recent.push(m.id);
  while (user.recent.length > 20) user.recent.shift();
  if (unread.length > 0)
    await timed('POST /messages/flags', user, 'POST', '/messages/flags', { messages: unread, op: 'add', flag: 'read' });
}

async function post(user) {
  const conv = conversationOf(user);
  const typingTo =
    conv.kind === 'channel'
      ? { type: 'stream', stream_id: conv.channel.id, topic: conv.topic }
      : { type: 'direct', to: conv.members.map((i) => org.users[i].id) };
  await timed('POST /typing', user, 'POST', '/typing', { ...typingTo, op: 'start' });
  const token = nextToken++;
  const members = conv.kind === 'channel' ? conv.channel.members : [...new Set([...conv.members, user.index])];
  const expected = members.filter((i) => connected.has(i)).length;
  const send = { started: performance.now(), expected, received: 0 };
  sends.set(token, send);
  stats.sent += 1;
  const params =
    conv.kind === 'channel'
      ? { type: 'stream', to: conv.channel.id, topic: conv.topic }
      : { type: 'direct', to: conv.members.map((i) => org.users[i].id) };
  const sent = await timed('POST /messages', user, 'POST', '/messages', {
    ...params,
    content: `sim${token} hello from a simulated user`,
  });
  if (!sent) send.expected = 0;
  await timed('POST /typing', user, 'POST', '/typing', { ...typingTo, op: 'stop' });
}

async function react(user) {
  if (user.recent.length === 0) return;
  const id = pick(user.recent);
  const emoji = pick(EMOJI);
  const key = `${id}:${emoji}`;
  if (user.reacted.has(key)) return;
  user.reacted.add(key);
  await timed('POST /reactions', user, 'POST', `/messages/${id}/reactions`, { emoji_name: emoji });
}

function multipart(filename, data) {
  const boundary = `----capacity${Date.now().toString(36)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}
const UPLOAD = Buffer.alloc(20_000, 'simulated file contents\n');

async function presence(user) {
  await timed('POST /users/me/presence', user, 'POST', '/users/me/presence', {
    status: 'active',
    ping_only: false,
    new_user_input: true,
    slim_presence: true,
  });
}

/**
 * Registers until it works, waiting between tries as the Flutter app does (its BackoffMachine: a random pause of up
 * to 100 ms × 2^n, at most 10 s), so that a server that sheds load is not met by a storm of retries.
 */
async function registerWithBackoff(user) {
  for (let attempt = 0; running; attempt++) {
    if (await register(user)) return;
    await sleep(Math.random() * Math.min(10_000, 100 * 2 ** attempt));
  }
}

async function start(user) {
  user.recent = [];
  user.reacted = new Set();
  await registerWithBackoff(user);
  void poll(user);
  every(CADENCE.presence, () => presence(user));
  if (opts['polls-only']) return;
  every(CADENCE.open, () => openConversation(user));
  every(CADENCE.post, () => post(user));
  every(CADENCE.reaction, () => react(user));
  every(CADENCE.upload, () =>
    timed('POST /user_uploads', user, 'POST', '/user_uploads', {}, { multipart: multipart('notes.txt', UPLOAD) }),
  );
}

// ---- per-step summary ----
function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
/** Resident memory of a process and its live descendants (PostgreSQL's backends, RabbitMQ's children). */
function rssTree(table, root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) for (const p of table) if (p.ppid === pids[i]) pids.push(p.pid);
  return pids.reduce((sum, pid) => sum + rssMiB(pid), 0);
}

function summarize(step, users, seconds, cpuBefore, cpuAfter, loaderCpu, lag, memory) {
  const rows = [];
  let total = 0;
  let errors = 0;
  let sum = 0;
  let worstP99 = 0;
  for (const [type, s] of [...stats.requests.entries()].sort()) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    total += sorted.length;
    errors += s.errors;
    // The long poll waits by design: its latency is no request's response time.
    const counted = type !== 'GET /events';
    if (counted) {
      sum += sorted.reduce((a, b) => a + b, 0);
      worstP99 = Math.max(worstP99, percentile(sorted, 99));
    }
    rows.push({
      type,
      count: sorted.length,
      perSecond: sorted.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      avg: sorted.reduce((a, b) => a + b, 0) / sorted.length,
      errors: s.errors,
      counted,
    });
  }
  const countedTotal = rows.filter((r) => r.counted).reduce((a, r) => a + r.count, 0);
  const average = countedTotal > 0 ? sum / countedTotal : 0;
  const delivery = [...stats.delivery].sort((a, b) => a - b);
  const cpu = Object.fromEntries(Object.keys(cpuAfter).map((n) => [n, (cpuAfter[n] - cpuBefore[n]) / seconds]));
  cpu['load generator'] = loaderCpu / seconds;
  const errorRate = total > 0 ? errors / total : 0;
  const broken = [];
  if (worstP99 > THRESHOLDS.p99Ms) broken.push(`a request type's p99 ${worstP99.toFixed(0)} ms > 2 s`);
  if (average > THRESHOLDS.averageMs) broken.push(`average ${average.toFixed(1)} ms > 100 ms`);
  if (errorRate > THRESHOLDS.errorRate) broken.push(`errors ${(errorRate * 100).toFixed(3)} % > 0.025 %`);
  const deliveryP99 = delivery.length > 0 ? percentile(delivery, 99) : 0;
  if (deliveryP99 > THRESHOLDS.deliveryP99Ms) broken.push(`delivery p99 ${deliveryP99.toFixed(0)} ms > 2 s`);
  return {
    step,
    users,
    seconds,
    rows,
    total,
    errors,
    errorRate,
    average,
    worstP99,
    delivery: {
      count: delivery.length,
      p50: delivery.length ? percentile(delivery, 50) : 0,
      p99: deliveryP99,
      max: delivery.at(-1) ?? 0,
    },
    cpu,
    lag,
    memory,
    badQueue: stats.badQueue,
    sent: stats.sent,
    errorSamples: [...stats.errorSamples.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5),
    broken,
  };
}

const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

function stepTable(s) {
  const lines = [
    `| request | requests | per s | p50 ms | p99 ms | avg ms | errors |`,
    `|---|---:|---:|---:|---:|---:|---:|`,
    ...s.rows.map(
      (r) =>
        `| ${r.type}${r.counted ? '' : ' (long poll)'} | ${r.count} | ${f(r.perSecond)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.avg)} | ${r.errors} |`,
    ),
    `| event delivery (send → each recipient's poll answer) | ${s.delivery.count} | | ${f(s.delivery.p50)} | ${f(s.delivery.p99)} | | |`,
  ];
  return lines.join('\n');
}

/**
 * Waits until the deployment's processes (its own PostgreSQL, Redis and RabbitMQ included) are idle — under 10 % of a
 * core in all for two seconds in a row — so that
 * what the set-up left queued (the consumers' backlog of thousands of user and subscription events) is not counted
 * as the registers' cost (creating 2,000 users through the API leaves minutes of group-membership work queued:
 * bench/RESULTS.md). Gives up after 15 minutes and says so. Returns the seconds waited.
 */
const IDLE_WAIT_MS = 900_000;
// With BENCH_PROFILE every process's profiler samples all the time: idle is then a higher floor.
const IDLE_CORES = process.env.BENCH_PROFILE ? 0.5 : 0.1;
async function untilIdle(roots) {
  const started = performance.now();
  let quietSeconds = 0;
  while (quietSeconds < 2) {
    if (performance.now() - started > IDLE_WAIT_MS) {
      console.log(
        `the deployment did not become idle within ${IDLE_WAIT_MS / 1000} s: the figures below include its backlog`,
      );
      break;
    }
    const a = snapshot(roots);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = snapshot(roots);
    const busy = Object.keys(b).reduce((sum, n) => sum + (b[n] - (a[n] ?? 0)), 0);
    quietSeconds = busy < IDLE_CORES ? quietSeconds + 1 : 0;
  }
  return (performance.now() - started) / 1000;
}

/**
 * The CPU of REGISTER_COST registers (the Flutter app's parameters) by users spread over the organization, two at a
 * time, per process; each queue is deleted after, as a client that leaves does.
 */
async function measureRegisterCost(roots) {
  const users = Array.from({ length: REGISTER_COST }, (_, i) => org.users[(i * 7919) % org.users.length]);
  const warm = users.slice(0, Math.min(10, users.length));
  const once = async (user) => {
    const started = performance.now();
    const r = await call(user, 'POST', '/register', REGISTER);
    if (r.status !== 200) throw new Error(`register: ${r.status} ${r.body.msg}`);
    const ms = performance.now() - started;
    await call(user, 'DELETE', '/events', { queue_id: r.body.queue_id });
    return { ms, bytes: JSON.stringify(r.body).length, body: r.body };
  };
  // First the set-up's backlog: a register waits for its user's own recent events (read-your-writes), which wait
  // behind it.
  const settled = await untilIdle(roots);
  let sample;
  for (const u of warm) sample = (await once(u)).body;
  // The largest parts of one answer (KiB of JSON), for the reading.
  const parts = Object.entries(sample)
    .map(([k, v]) => [k, JSON.stringify(v).length / 1024])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  if (STATEMENTS) await topStatements(postgresUrl, 1, 0);
  const before = snapshot(roots);
  const loaderBefore = process.cpuUsage();
  const latencies = [];
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < users.length) {
      const r = await once(users[next++]);
      latencies.push(r.ms);
      bytes = r.bytes;
    }
  };
  const started = performance.now();
  await Promise.all([worker(), worker()]);
  const seconds = (performance.now() - started) / 1000;
  const after = snapshot(roots);
  const loader = process.cpuUsage(loaderBefore);
  if (STATEMENTS) {
    console.log(`PostgreSQL's statements per register (pg_stat_statements):`);
    await topStatements(postgresUrl, users.length);
  }
  latencies.sort((a, b) => a - b);
  const perOp = Object.fromEntries(
    Object.keys(after).map((n) => [n, ((after[n] - (before[n] ?? 0)) * 1000) / users.length]),
  );
  perOp['load generator'] = (loader.user + loader.system) / 1000 / users.length;
  const names = Object.keys(perOp).filter((n) => perOp[n] >= 0.05);
  const total = names.reduce((a, n) => a + perOp[n], 0);
  return `## Register cost against the organization's size${opts.label ? ` — ${opts.label}` : ''} (bench/capacity.mjs --register-cost, ${new Date().toISOString().slice(0, 16)}Z)

${machine()}; load average ${LOAD_AT_START.map((l) => l.toFixed(1)).join(' / ')} at the start${LOAD_AT_START[0] > 4 ? ' — **a loaded machine: an upper bound**' : ''}.
\`node bench/capacity.mjs --max ${MAX} --register-cost ${REGISTER_COST}\`: an organization of ${org.shape.users} users (${setupNote}),
${org.shape.channels} channels of ${org.shape.sizes} members (median ${org.shape.median}), ${org.shape.perUser} channels per user; ${REGISTER_COST}
registers with the Flutter app's parameters by users across it (after ${f(settled, 0)} s for the set-up's backlog to drain), two at a time (${f(REGISTER_COST / seconds)} per second); an answer of ${f(bytes / 1024, 0)} KiB
(largest parts, KiB: ${parts.map(([k, v]) => `${k} ${f(v, 0)}`).join(', ')}).
CPU in ms per register, from /proc.

| users | ${names.join(' | ')} | **total ms** | p50 ms | p99 ms |
|---:|${names.map(() => '---:').join('|')}|---:|---:|---:|
| ${org.shape.users} | ${names.map((n) => f(perOp[n], 2)).join(' | ')} | **${f(total, 1)}** | ${f(percentile(latencies, 50))} | ${f(percentile(latencies, 99))} |`;
}

// ---- the reconnect storm (--storm) ----
/** While a storm is measured: when it began, the clients connected then, and when each had a working queue again. */
let storm;
function recoveredAfterStorm(user) {
  if (storm && storm.expected.has(user.index) && !storm.recovered.has(user.index))
    storm.recovered.set(user.index, performance.now() - storm.t0);
}

/** Channels whose members together are every one of `indexes` (greedy, largest share first), and who is left. */
function coverOf(indexes) {
  const left = new Set(indexes);
  const chosen = [];
  for (;;) {
    let best;
    let bestCount = 0;
    for (const channel of org.channels) {
      let n = 0;
      for (const m of channel.members) if (left.has(m)) n++;
      if (n > bestCount) [best, bestCount] = [channel, n];
    }
    if (!best) return { chosen, left };
    chosen.push(best);
    for (const m of best.members) left.delete(m);
  }
}

const STORM_LIMIT_MS = 120_000;
/**
 * Restarts the gateway and the events service at once, as an upgrade does, with every simulated client connected;
 * then posts one probe message to channels that together reach every connected client. A client has a working
 * queue again when its long poll delivers the probe (its queue survived: Confab keeps queues in Redis) or when it
 * registered anew after BAD_EVENT_QUEUE_ID. Reports the times from the restart, and every request of the window.
 */
async function measureStorm(roots) {
  await sleep(10_000);
  const expected = new Set(connected);
  const { chosen, left } = coverOf([...expected]);
  stats = newStats();
  const cpuBefore = snapshot(roots);
  const loaderBefore = process.cpuUsage();
  const loadBefore = loadavg()[0];
  storm = { t0: performance.now(), expected, recovered: new Map() };
  console.log(
    `[capacity] storm: restarting the gateway and the events service with ${expected.size} clients connected`,
  );
  await Promise.all([stack.restart('gateway'), stack.restart('events')]);
  const restartedMs = performance.now() - storm.t0;
  // The restarted processes have new pids: their CPU in the window is all they have spent.
  const rootsAfter = processRoots(stack, servers);
  for (const [name, pid] of Object.entries(rootsAfter)) if (roots[name] !== pid) cpuBefore[name] = 0;
  console.log(`[capacity] storm: both ready again after ${f(restartedMs / 1000)} s; probing ${chosen.length} channels`);
  const probeSent = [];
  await Promise.all(
    chosen.map(async (channel, k) => {
      const sender = org.users[channel.members.find((m) => expected.has(m)) ?? channel.members[0]];
      for (let attempt = 0; ; attempt++) {
        const r = await call(sender, 'POST', '/messages', {
          type: 'stream',
          to: channel.id,
          topic: 'storm',
          content: `probe${k} after the restart`,
        });
        if (r.status === 200) break;
        if (performance.now() - storm.t0 > STORM_LIMIT_MS) return;
        await sleep(Math.min(2000, 100 * 2 ** attempt));
      }
      probeSent.push(performance.now() - storm.t0);
    }),
  );
  while (storm.recovered.size < expected.size && performance.now() - storm.t0 < STORM_LIMIT_MS) await sleep(200);
  // What the clients' other requests met in the same window, until everyone had a queue again (and 5 s more).
  await sleep(5000);
  const windowSeconds = (performance.now() - storm.t0) / 1000;
  const loader = process.cpuUsage(loaderBefore);
  const s = summarize(
    'storm',
    expected.size,
    windowSeconds,
    cpuBefore,
    snapshot(rootsAfter),
    (loader.user + loader.system) / 1e6,
    { p50: 0, p99: 0 },
    {},
  );
  const times = [...storm.recovered.values()].sort((a, b) => a - b);
  const missing = expected.size - storm.recovered.size;
  const total = s.total;
  const errors = s.errors;
  const cores = Object.entries(s.cpu).filter(([, v]) => v >= 0.005);
  const result = {
    clients: expected.size,
    restartedMs,
    probes: chosen.length,
    uncovered: left.size,
    lastProbeMs: Math.max(0, ...probeSent),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? 0,
    missing,
    badQueue: s.badQueue,
  };
  storm = undefined;
  return `### Reconnect storm: the gateway and the events service restarted with ${result.clients} clients connected (bench/capacity.mjs --storm)

Load average ${f(loadBefore)} before the restart. Both processes stopped and started at once (one replica of each, so
nothing answered in between); both were ready again ${f(result.restartedMs / 1000)} s after the stop began. Then one
probe message in each of ${result.probes} channels that together reach every connected client (${result.uncovered} reached by none), the last
sent ${f(result.lastProbeMs / 1000)} s after the stop began.

| clients | with a working queue again | p50 s | p99 s | last s | never (within ${STORM_LIMIT_MS / 1000} s) | re-registered after BAD_EVENT_QUEUE_ID | requests in the window | failed |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| ${result.clients} | ${times.length} | ${f(result.p50 / 1000)} | ${f(result.p99 / 1000)} | ${f(result.max / 1000)} | ${result.missing} | ${result.badQueue} | ${total} | ${errors} |

CPU in the window, cores: ${cores.map(([n, v]) => `${n} ${f(v, 2)}`).join(', ')}; in all **${f(
    cores.reduce((a, [, v]) => a + v, 0),
    2,
  )}**.
Every request of the ${f(windowSeconds, 0)} s from the stop (a client retries a failed poll a second later; a failed
register with the apps' backoff):

${stepTable(s)}${s.errorSamples.length ? `\n\nErrors: ${s.errorSamples.map(([k, n]) => `${n}× ${k}`).join('; ')}` : ''}`;
}

// ---- the run ----
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
const { stack, info, servers, postgresUrl, destroyServers } = await startPrivateBenchStack(
  {
    // The long polls and the requests of thousands of users through the gateway's forwarder at once.
    CONFAB_PROXY_MAX_SOCKETS: String(Math.max(256, MAX * 2)),
  },
  { statements: STATEMENTS },
);
// Stopped by a signal (Ctrl+C, a timeout): the stack and its private servers go too, as at the end of a run.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    console.log(`[capacity] ${signal}: stopping the stack`);
    running = false;
    void stack
      .stop({ cleanUp: true })
      .then(destroyServers)
      .finally(() => process.exit(130));
  });
const results = [];
let setupNote = '';
let registerCostSection;
let stormSection;
try {
  gatewayUrl = info.gatewayUrl;
  const setupStarted = Date.now();
  org = await createOrganization(info);
  setupNote = `set-up ${((Date.now() - setupStarted) / 1000).toFixed(0)} s`;
  const roots = processRoots(stack, servers);
  if (REGISTER_COST > 0) registerCostSection = await measureRegisterCost(roots);
  const lagHistogram = monitorEventLoopDelay({ resolution: 10 });
  lagHistogram.enable();
  let active = 0;
  for (let step = 1; active < MAX && REGISTER_COST === 0; step++) {
    const target = Math.min(MAX, active + STEP);
    stats = newStats();
    lagHistogram.reset();
    const cpuBefore = snapshot(roots);
    const loaderBefore = process.cpuUsage();
    const stepStarted = performance.now();
    // The step's new users arrive spread over its first fifth, not all in one instant.
    const rampMs = (STEP_SECONDS * 1000) / 5;
    const arriving = target - active;
    for (let i = active; i < target; i++) {
      setTimeout(() => void start(org.users[i]), ((i - active) / arriving) * rampMs);
    }
    active = target;
    console.log(`[capacity] step ${step}: ${active} users for ${STEP_SECONDS} s`);
    const progress = setInterval(() => {
      const elapsed = (performance.now() - stepStarted) / 1000;
      console.log(
        `[capacity]   ${elapsed.toFixed(0)} s: ${connected.size} connected, ${stats.sent} sent, ${stats.delivery.length} delivered, load ${loadavg()[0].toFixed(1)}`,
      );
    }, 30_000);
    await sleep(STEP_SECONDS * 1000);
    clearInterval(progress);
    const seconds = (performance.now() - stepStarted) / 1000;
    const cpuAfter = snapshot(roots);
    const loader = process.cpuUsage(loaderBefore);
    const table = (await import('./cpu.mjs')).processTable();
    const memory = Object.fromEntries(Object.entries(roots).map(([n, pid]) => [n, rssTree(table, pid)]));
    memory['load generator'] = process.memoryUsage().rss / 2 ** 20;
    const lag = { p50: lagHistogram.percentile(50) / 1e6, p99: lagHistogram.percentile(99) / 1e6 };
    const summary = summarize(
      step,
      active,
      seconds,
      cpuBefore,
      cpuAfter,
      (loader.user + loader.system) / 1e6,
      lag,
      memory,
    );
    summary.load = loadavg()[0];
    summary.connected = connected.size;
    results.push(summary);
    console.log(stepTable(summary));
    console.log(
      `[capacity] step ${step}: ${active} users, errors ${summary.errors}/${summary.total}, average ${f(summary.average)} ms, ` +
        `CPU cores: ${Object.entries(summary.cpu)
          .filter(([, v]) => v >= 0.005)
          .map(([n, v]) => `${n} ${v.toFixed(2)}`)
          .join(
            ', ',
          )}; generator loop lag p99 ${f(lag.p99)} ms; ${summary.broken.length ? `BROKEN: ${summary.broken.join('; ')}` : 'within thresholds'}`,
    );
    for (const [k, n] of summary.errorSamples) console.log(`[capacity]   error ×${n}: ${k}`);
    // Forget sends older than a step (their deliveries are in).
    for (const [token, s] of sends) if (performance.now() - s.started > 60_000) sends.delete(token);
    if (summary.broken.length > 0 && !opts.storm) break;
  }
  if (opts.storm && REGISTER_COST === 0) stormSection = await measureStorm(roots);
} finally {
  running = false;
  await stack.stop({ cleanUp: true });
  await destroyServers();
  agent.destroy();
}

// ---- the report ----
if (registerCostSection) {
  console.log(`\n${registerCostSection}`);
  record(registerCostSection);
  process.exit(0);
}
const good = results.filter((r) => r.broken.length === 0);
const lastGood = good.at(-1);
const firstBad = results.find((r) => r.broken.length > 0);
const processNames = Object.keys(results[0]?.cpu ?? {}).filter((n) => results.some((r) => r.cpu[n] >= 0.005));
const overview = [
  `| users | requests/s | errors | avg ms | worst p99 ms | delivery p50 / p99 ms | ${processNames.join(' | ')} | **CPU cores** | loop lag p99 ms | load avg | verdict |`,
  `|---:|---:|---:|---:|---:|---:|${processNames.map(() => '---:').join('|')}|---:|---:|---:|---|`,
  ...results.map((r) => {
    const cores = Object.values(r.cpu).reduce((a, b) => a + b, 0);
    return `| ${r.users} | ${f(r.total / r.seconds)} | ${r.errors} | ${f(r.average)} | ${f(r.worstP99, 0)} | ${f(r.delivery.p50, 0)} / ${f(r.delivery.p99, 0)} | ${processNames.map((n) => f(r.cpu[n], 2)).join(' | ')} | **${f(cores, 2)}** | ${f(r.lag.p99)} | ${f(r.load)} | ${r.broken.length ? r.broken.join('; ') : 'good'} |`;
  }),
];
const memoryNames = Object.keys(results[0]?.memory ?? {});
const memoryTable = [
  `| users | ${memoryNames.join(' | ')} |`,
  `|---:|${memoryNames.map(() => '---:').join('|')}|`,
  ...results.map((r) => `| ${r.users} | ${memoryNames.map((n) => f(r.memory[n], 0)).join(' | ')} |`),
];
const verdict = lastGood
  ? `Last step within Mattermost's thresholds: **${lastGood.users} users**${firstBad ? `; ${firstBad.users} broke them (${firstBad.broken.join('; ')})` : ` (the largest step run; no step broke them)`}.`
  : `No step stayed within the thresholds (the first, ${firstBad?.users} users: ${firstBad?.broken.join('; ')}).`;
const section = `## Capacity: simulated Flutter clients in steps${opts.label ? ` — ${opts.label}` : ''} (bench/capacity.mjs, ${new Date().toISOString().slice(0, 16)}Z)

${machine()}; the stack, its private PostgreSQL/Redis/RabbitMQ and the load generator (one process) share the machine;
load average ${LOAD_AT_START.map((l) => l.toFixed(1)).join(' / ')} at the start${LOAD_AT_START[0] > 4 ? " — **a loaded machine: other work was running, so the user counts are not this machine's capacity**" : ''}.
\`node bench/capacity.mjs --step ${STEP} --max ${MAX} --seconds ${STEP_SECONDS} --compress ${COMPRESS}\`: an organization of
${org?.shape.users} users (${setupNote}), ${org?.shape.channels} channels of ${org?.shape.sizes} members (median ${org?.shape.median}), ${org?.shape.perUser} channels per user,
three direct-message partners and a group conversation each. Each user: the Flutter app's /register, one long poll,
presence every ${CADENCE.presence / COMPRESS} s, a conversation opened every ${f(CADENCE.open / COMPRESS)} s, a post every ${CADENCE.post / COMPRESS} s (typing start/stop around it),
a reaction every ${CADENCE.reaction / COMPRESS} s, an upload every ${CADENCE.upload / COMPRESS} s (mean intervals, exponentially spread)${COMPRESS !== 1 ? ` — time compressed ${COMPRESS}×, so each step's request rate is that of ${COMPRESS} times as many real users, on only as many connections as users` : ''}.
CPU in cores (CPU seconds per second of the step, from /proc); memory in MiB resident at the step's end.

${verdict}

${overview.join('\n')}

Resident memory (MiB):

${memoryTable.join('\n')}

${results.map((r) => `Step of ${r.users} users (${f(r.seconds, 0)} s, ${r.connected} queues connected, ${r.badQueue} BAD_EVENT_QUEUE_ID re-registrations):\n\n${stepTable(r)}${r.errorSamples.length ? `\n\nErrors: ${r.errorSamples.map(([k, n]) => `${n}× ${k}`).join('; ')}` : ''}`).join('\n\n')}`;
const full = stormSection ? `${section}\n\n${stormSection}` : section;
console.log(`\n${full}`);
record(full);
process.exit(0);
