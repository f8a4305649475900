// Do push notifications keep up with the sends? Direct messages to away receivers (each with one client device
// registered, as the Flutter app registers it) are sent at a fixed rate, open loop (a send starts on schedule
// whether or not the earlier ones were answered), for a fixed time; the development relay (libs/devkit DevRelay, in
// this process on 127.0.0.1) notes when each notification arrives. Every second it samples the backlog — messages
// answered 200 whose notification has not reached the relay yet — so a pipeline that falls behind shows as a
// backlog that grows with the run, one that keeps up as a flat one. Reports the delay from the send to the relay's
// receipt (p50, p99, max), the backlog over time, the time to drain after the last send, and the CPU per
// notification of every process (from /proc, servers of this run's own).
// Usage: node bench/notify-throughput.mjs [sends per second] [seconds]   (defaults 75, 60)
// BENCH_RECORD=0: do not append to RESULTS.md.
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import devkit from '@confab/devkit';
import { perOperation, processRoots, snapshot } from './cpu.mjs';
import { apiCall, machine, percentile, record, startPrivateBenchStack } from './lib.mjs';

const RATE = Number(process.argv[2] ?? 75);
const SECONDS = Number(process.argv[3] ?? 60);
const DRAIN_LIMIT_MS = 120_000;
const SERVER_ID = 'confab-bench';
const SERVER_KEY = 'bench-relay-key-0123456789abcdef';
const LOAD_AT_START = loadavg();

/** When the relay received the notification of each message, by message id (from its log line). */
const arrivals = new Map();
const relay = new devkit.DevRelay(SERVER_ID, SERVER_KEY, (line) => {
  const id = /\(.*, message:(\d+):/.exec(line)?.[1];
  if (id && !arrivals.has(Number(id))) arrivals.set(Number(id), performance.now());
});
await relay.start();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

const { stack, info, servers, destroyServers } = await startPrivateBenchStack({
  CONFAB_PUSH_RELAY_URL: relay.url,
  CONFAB_PUSH_RELAY_SERVER_ID: SERVER_ID,
  CONFAB_PUSH_RELAY_SERVER_KEY: SERVER_KEY,
});
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
/** One send through the gateway on the shared keep-alive agent: its status and body, a failure as status 0. */
const send = (user, params) =>
  apiCall(agent, info.gatewayUrl, user, 'POST', '/messages', params, user.host).then(
    (body) => ({ status: 200, body }),
    (err) => ({ status: 0, body: { msg: err.message } }),
  );

let section;
try {
  const world = await devkit.createWorld(info);
  const sender = (name) => ({ ...world.user(name), host: world.host });
  // Receivers with a device each; nobody reports presence, so all of them are away.
  const receivers = ['othello', 'cordelia', 'prospero', 'aaron'];
  for (const [k, name] of receivers.entries()) {
    const client = world.as(name);
    const device = (await client.post('/register_client_device')).body.device_id;
    const registered = await client.post('/mobile_push/register', {
      device_id: device,
      push_key_id: 1,
      push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7 + k)]).toString('base64'),
      token_kind: 'fcm',
      token_id: Buffer.alloc(8, 3 + k).toString('base64'),
      bouncer_public_key: 'mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=',
      encrypted_push_registration: 'c2VhbGVkLWJ5LXRoZS1hcHA=',
    });
    if (registered.status !== 200) throw new Error(`registering ${name}'s device failed: ${registered.text}`);
  }
  while (relay.registrations.length < receivers.length) await sleep(100);
  const senders = ['hamlet', 'iago', 'desdemona', 'shiva'].map(sender);
  const receiverIds = receivers.map((n) => world.user(n).id);

  // Warm-up: one notification per receiver, waited for.
  for (const [k, id] of receiverIds.entries()) {
    const r = await send(senders[k % senders.length], { type: 'direct', to: JSON.stringify([id]), content: 'warm' });
    if (r.status !== 200) throw new Error(`warm-up send failed: ${r.status} ${r.body.msg}`);
    while (!arrivals.has(r.body.id)) await sleep(10);
  }

  const roots = processRoots(stack, servers);
  const cpuBefore = snapshot(roots);
  /** message id -> when its send started */
  const sentAt = new Map();
  let failed = 0;
  const failures = new Map();
  const inFlight = new Set();
  const samples = [];
  const started = performance.now();
  const total = RATE * SECONDS;
  const sampler = setInterval(() => {
    let waiting = 0;
    for (const id of sentAt.keys()) if (!arrivals.has(id)) waiting++;
    samples.push({ at: (performance.now() - started) / 1000, waiting, unanswered: inFlight.size });
  }, 1000);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    const token = Symbol(i);
    inFlight.add(token);
    void send(senders[i % senders.length], {
      type: 'direct',
      to: JSON.stringify([receiverIds[i % receiverIds.length]]),
      content: `notify ${i}`,
    }).then((r) => {
      inFlight.delete(token);
      if (r.status === 200) sentAt.set(r.body.id, t0);
      else {
        failed++;
        const key = `${r.status} ${r.body.msg ?? ''}`.slice(0, 120);
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    });
  }
  const sendingSeconds = (performance.now() - started) / 1000;
  while (inFlight.size > 0) await sleep(10);
  const lastSend = performance.now();
  for (;;) {
    let left = 0;
    for (const id of sentAt.keys()) if (!arrivals.has(id)) left++;
    if (left === 0 || performance.now() - lastSend > DRAIN_LIMIT_MS) break;
    await sleep(20);
  }
  const drainMs = performance.now() - lastSend;
  clearInterval(sampler);
  await sleep(500);
  const delivered = [...sentAt.keys()].filter((id) => arrivals.has(id));
  const cpu = perOperation(cpuBefore, snapshot(roots), Math.max(1, delivered.length));
  const delays = delivered.map((id) => arrivals.get(id) - sentAt.get(id)).sort((a, b) => a - b);
  const missing = sentAt.size - delivered.length;
  const worstBacklog = Math.max(0, ...samples.map((s) => s.waiting));
  const third = Math.max(1, Math.floor(samples.length / 3));
  const avg = (list) => list.reduce((a, s) => a + s.waiting, 0) / Math.max(1, list.length);
  const firstThird = avg(samples.slice(0, third));
  const lastThird = avg(samples.slice(-third));
  const names = Object.keys(cpu.parts).filter((n) => cpu.parts[n] >= 0.005);
  console.log(
    `[bench] ${sentAt.size} sent (${failed} failed) in ${f(sendingSeconds)} s; delay p50 ${f(percentile(delays, 50))} ms, p99 ${f(percentile(delays, 99))} ms; backlog worst ${worstBacklog}, drained ${f(drainMs / 1000)} s after the last answer; ${missing} never arrived`,
  );
  const every = Math.max(1, Math.round(samples.length / 12));
  section = `## Push notifications at a steady send rate (bench/notify-throughput.mjs, ${new Date().toISOString().slice(0, 16)}Z)

${machine()}; load average ${LOAD_AT_START.map((l) => f(l)).join(' / ')} at the start${LOAD_AT_START[0] > 4 ? ' — **a loaded machine: an upper bound**' : ''}. A stack of its own on private
PostgreSQL, Redis and RabbitMQ, one replica of each process. \`node bench/notify-throughput.mjs ${RATE} ${SECONDS}\`: direct
messages at ${RATE} a second for ${SECONDS} s (open loop, from 4 senders), each to one of 4 away receivers with one
device each; the development relay (in the bench process) notes each notification's arrival.

| sends answered 200 | failed | notifications | delay p50 ms | p99 ms | max ms | backlog, worst | backlog, first third / last third of the run (mean) | drained after the last answer | never arrived (${DRAIN_LIMIT_MS / 1000} s) |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| ${sentAt.size} | ${failed} | ${delivered.length} | ${f(percentile(delays, 50))} | ${f(percentile(delays, 99))} | ${f(delays.at(-1) ?? NaN)} | ${worstBacklog} | ${f(firstThird)} / ${f(lastThird)} | ${f(drainMs / 1000)} s | ${missing} |

The backlog (sent, not yet at the relay) over the run: ${samples
    .filter((_, i) => i % every === 0)
    .map((s) => `${f(s.at, 0)} s: ${s.waiting}`)
    .join(', ')}.

CPU per notification (the send included), ms, per process: ${names.map((n) => `${n} ${f(cpu.parts[n], 2)}`).join(', ')}; **${f(cpu.total, 2)}** in all.${
    failures.size ? `\n\nFailed sends: ${[...failures].map(([k, n]) => `${n}× ${k}`).join('; ')}` : ''
  }`;
} finally {
  agent.destroy();
  await stack.stop({ cleanUp: true });
  await destroyServers();
  await relay.stop();
}
console.log(`\n${section}`);
record(section);
process.exit(0);
