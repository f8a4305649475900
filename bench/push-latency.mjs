// Push notifications of new messages: from POST /messages (through the gateway) to the relay's receipt of the
// notification, for a direct message and for a mention in a channel of 1,000 subscribers (p50, p99), and the CPU
// each notification costs each process (from /proc, servers of this run's own). The relay is the development relay
// (libs/devkit DevRelay) in this process on 127.0.0.1; the receiver has one client device (feature level 468).
// Sends are one at a time (each waits for its notification), so the latency is the pipeline's, not a queue's.
// Usage: pnpm --filter @confab/bench push [notifications per case]
import { performance } from 'node:perf_hooks';
import devkit from '@confab/devkit';
import { perOperation, processRoots, snapshot } from './cpu.mjs';
import { announceUsers, machine, percentile, record, startPrivateBenchStack } from './lib.mjs';

const COUNT = Number(process.argv[2] ?? 200);
const WARM_UP = 20;
const BIG = 1000;
const SERVER_ID = 'confab-bench';
const SERVER_KEY = 'bench-relay-key-0123456789abcdef';

/** When the relay received the notification of each message, by message id (from its log line). */
const arrivals = new Map();
const relay = new devkit.DevRelay(SERVER_ID, SERVER_KEY, (line) => {
  const id = /\(.*, message:(\d+):/.exec(line)?.[1];
  if (id) arrivals.set(Number(id), performance.now());
});
await relay.start();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { stack, info, servers, destroyServers } = await startPrivateBenchStack({
  CONFAB_PUSH_RELAY_URL: relay.url,
  CONFAB_PUSH_RELAY_SERVER_ID: SERVER_ID,
  CONFAB_PUSH_RELAY_SERVER_KEY: SERVER_KEY,
});
try {
  const world = await devkit.createWorld(info);
  const othello = world.as('othello');
  // The Flutter app's registration: a client device, then its push key and token.
  const device = (await othello.post('/register_client_device')).body.device_id;
  const registered = await othello.post('/mobile_push/register', {
    device_id: device,
    push_key_id: 1,
    push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64'),
    token_kind: 'fcm',
    token_id: Buffer.alloc(8, 3).toString('base64'),
    bouncer_public_key: 'mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=',
    encrypted_push_registration: 'c2VhbGVkLWJ5LXRoZS1hcHA=',
  });
  if (registered.status !== 200) throw new Error(`registering the device failed: ${registered.text}`);
  while (relay.registrations.length === 0) await sleep(100);

  const iago = world.as('iago');
  const readers = await announceUsers(info, world.realm.realm_id, BIG - 3);
  const created = await iago.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'town square' }],
    principals: [world.user('iago').id, world.user('hamlet').id, world.user('othello').id, ...readers],
  });
  if (created.status !== 200) throw new Error(`creating the big channel failed: ${created.text}`);

  const hamlet = world.as('hamlet');
  const cases = [
    {
      label: 'direct message',
      params: (i) => ({ type: 'direct', to: JSON.stringify([world.user('othello').id]), content: `ping ${i}` }),
    },
    {
      label: `mention in a channel of ${BIG} subscribers`,
      params: (i) => ({
        type: 'stream',
        to: 'town square',
        topic: 'bench',
        content: `@**${world.user('othello').fullName}** ping ${i}`,
      }),
    },
  ];
  const roots = processRoots(stack, servers);
  // The other services digest the 997 announced users for a while: measure once the system is idle again (under
  // 50 ms of CPU in a second, all processes together), at most two minutes from now.
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const before = snapshot(roots);
    await sleep(1000);
    const busy = Object.values(perOperation(before, snapshot(roots), 1).parts).reduce((a, b) => a + b, 0);
    if (busy < 50) break;
  }
  const results = [];
  for (const c of cases) {
    const latencies = [];
    let cpuBefore;
    for (let i = 0; i < WARM_UP + COUNT; i++) {
      if (i === WARM_UP) cpuBefore = snapshot(roots);
      const started = performance.now();
      const response = await hamlet.post('/messages', c.params(i));
      if (response.status !== 200) throw new Error(`send failed: ${response.text}`);
      const id = response.body.id;
      const deadline = Date.now() + 30_000;
      while (!arrivals.has(id)) {
        if (Date.now() > deadline) throw new Error(`no notification of message ${id} in 30 s`);
        await sleep(1);
      }
      const received = arrivals.get(id);
      if (i >= WARM_UP) latencies.push(received - started);
    }
    // The last notification's bookkeeping (its delivery row, the job's completion) is part of its cost.
    await sleep(500);
    const cpu = perOperation(cpuBefore, snapshot(roots), COUNT);
    latencies.sort((a, b) => a - b);
    results.push({ label: c.label, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpu });
    console.log(
      `[bench] ${c.label}: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `CPU ${cpu.total.toFixed(2)} ms per notification`,
    );
  }

  const parts = Object.keys(results[0].cpu.parts);
  const cell = (r, name) => r.cpu.parts[name].toFixed(2);
  record(`
## Push notifications: send to relay receipt (bench/push-latency.mjs), ${new Date().toISOString().slice(0, 10)}

${machine()}. One sender, one send at a time, each waiting for its notification at the development relay (in the
bench process, 127.0.0.1); the receiver has one client device and is away. ${COUNT} notifications per case after
${WARM_UP} to warm up. Latency: from POST /messages leaving the client to the relay's receipt of the notification.
CPU: each process's own (user + system, from /proc, its children included) over the measured sends, per
notification, with PostgreSQL, Redis and RabbitMQ private to the run; since the sends are sequential, it includes
what the processes spend on timers and polling while a notification is under way.

| case | p50 (ms) | p99 (ms) | CPU per notification, all processes (ms) |
| --- | --- | --- | --- |
${results.map((r) => `| ${r.label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpu.total.toFixed(2)} |`).join('\n')}

CPU per notification by process (ms):

| process | ${results.map((r) => r.label).join(' | ')} |
| --- | ${results.map(() => '---').join(' | ')} |
${parts.map((name) => `| ${name} | ${results.map((r) => cell(r, name)).join(' | ')} |`).join('\n')}
`);
} finally {
  await stack.stop({ cleanUp: true });
  await destroyServers();
  await relay.stop();
}
