// CPU of one long-poll answer, across the gateway, the events service and Redis (issue 33's "cheaper long poll"):
// QUEUES queues long-poll through the gateway; MESSAGES message.sent envelopes are published straight on the exchange
// (so messaging's part is left out), one after another, each waited for at every queue. The CPU those three parts
// spent (utime + stime from /proc, every replica summed) is divided by the poll answers, that is MESSAGES × QUEUES:
// each answer includes its share of the fan-out (the events service's consumer and its Redis script), the poll's
// answer and the next poll taken. Throughput is answers per second of wall time over the measured messages.
// Usage: node bench/longpoll-cpu.mjs [queues] [messages]   (defaults 1000, 30); BENCH_REPLICAS=2 runs two of every
// process behind the stack's balancers (whose CPU, in this process, is not counted: it plays the cluster's load
// balancer). BENCH_PROFILE=<dir>: every process writes a CPU profile there (the run is then not recorded).
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { connect } from 'amqplib';
import devkit from '@confab/devkit';
import events from '@confab/events';
import { processRoots, snapshot } from './cpu.mjs';
import {
  apiCall,
  benchReplicas,
  channelMessageSent,
  machine,
  percentile,
  publishMessageSent,
  record,
  registerQueues,
  startPrivateBenchStack,
} from './lib.mjs';

const QUEUES = Number(process.argv[2] ?? 1000);
const MESSAGES = Number(process.argv[3] ?? 30);
const WARM_UP = 3;
const REPLICAS = benchReplicas();
const LOAD_AT_START = loadavg()[0];
const TARGET_MS = 0.3;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

const { stack, info, servers, destroyServers } = await startPrivateBenchStack({
  CONFAB_PROXY_MAX_SOCKETS: String(QUEUES * 2),
  // A thousand queues over the nine development users: past the default cap of 100 per user.
  EVENTS_MAX_QUEUES_PER_USER: '0',
  // The credential cache stays warm for the whole run: the run measures answers, not re-authentication.
  CONFAB_AUTH_CACHE_TTL_SECONDS: '3600',
});
let stopping = false;
try {
  const world = await devkit.createWorld(info);
  const users = Object.values(world.users).filter((u) => !u.isBot);
  const sender = world.user('hamlet');
  const call = (user, method, path, params) =>
    apiCall(agent, info.gatewayUrl, user, method, path, params, world.host);
  const queues = await registerQueues(call, users, QUEUES);

  let expected = null;
  let received = 0;
  let failures = 0;
  let onAll = () => undefined;
  const latencies = [];
  let startedAt = 0;
  const pollForever = async (q) => {
    while (!stopping) {
      let answer;
      try {
        answer = await call(q.user, 'GET', '/events', { queue_id: q.queueId, last_event_id: q.last });
      } catch {
        if (stopping) return;
        failures++;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      for (const event of answer.events) {
        q.last = Math.max(q.last, event.id);
        if (event.type === 'message' && event.message.id === expected) {
          latencies.push(performance.now() - startedAt);
          if (++received === QUEUES) onAll();
        }
      }
    }
  };
  for (const q of queues) void pollForever(q);
  await new Promise((r) => setTimeout(r, 1000));

  const template = (
    await call(sender, 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0 }).catch(() => ({}))
  ).messages?.[0];
  const connection = await connect(info.amqpUrl, { noDelay: true });
  const channel = await connection.createConfirmChannel();
  const roots = processRoots(stack, servers);
  const parts = Object.keys(roots).filter((name) => /^(gateway|events)(-\d+)?$/.test(name) || name === 'redis');
  let before;
  let wallStart = 0;
  for (let m = 0; m < MESSAGES + WARM_UP; m++) {
    if (m === WARM_UP) {
      latencies.length = 0;
      before = snapshot(roots);
      wallStart = performance.now();
    }
    received = 0;
    const done = new Promise((resolve) => (onAll = resolve));
    expected = 300_000_000 + m;
    const payload = channelMessageSent({
      id: expected,
      sender,
      realm: world.realm,
      template,
      userIds: users.map((u) => u.id),
      content: `poll ${m}`,
    });
    const envelope = events.makeEnvelope(events.contracts.messageSent, payload, { realmId: world.realm.realm_id });
    startedAt = performance.now();
    await publishMessageSent(channel, info.exchange, envelope);
    await done;
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const after = snapshot(roots);
  await connection.close();

  const answers = MESSAGES * QUEUES;
  const perAnswer = Object.fromEntries(parts.map((name) => [name, ((after[name] - before[name]) * 1000) / answers]));
  const total = Object.values(perAnswer).reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  const section = `
## Long-poll CPU: one answer across the gateway, the events service and Redis, ${REPLICAS} replica${REPLICAS > 1 ? 's' : ''} of each process — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}, load average ${LOAD_AT_START.toFixed(1)} at the start. ${QUEUES} queues long-polling through
the gateway; ${MESSAGES} message.sent envelopes (after ${WARM_UP} warm-ups) published on the exchange one after another,
each to all ${QUEUES} queues. CPU per poll answer (its share of the fan-out, the answer, the next poll), ms, from /proc;
private PostgreSQL/Redis/RabbitMQ. Script: \`${REPLICAS > 1 ? `BENCH_REPLICAS=${REPLICAS} ` : ''}node bench/longpoll-cpu.mjs ${QUEUES} ${MESSAGES}\`.

| ${parts.join(' | ')} | **total** | answers/s | p50 ms | p99 ms | failed polls |
|${parts.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|
| ${parts.map((name) => perAnswer[name].toFixed(3)).join(' | ')} | **${total.toFixed(3)}** | ${(answers / wallSeconds).toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${failures} |

Target: ≤ ${TARGET_MS} ms of CPU per answer — ${total <= TARGET_MS ? 'met' : 'not met'} on this run.
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0' && !process.env.BENCH_PROFILE) record(section);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  stopping = true;
  await stack.stop({ cleanUp: true });
  await destroyServers();
  process.exit();
}
