// Send-to-event latency with many connected queues: QUEUES event queues (spread over the development users, all in
// Verona) long-poll through the gateway; each message sent to Verona must reach every one of them. Latency is from
// the start of POST /messages to the moment each poll returns the message event.
// Usage: pnpm --filter @confab/bench events [queues] [messages]
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { connect } from 'amqplib';
import devkit from '@confab/devkit';
import events from '@confab/events';
import { perOperation, processRoots, snapshot } from './cpu.mjs';
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
/** broadcast: every message reaches every queue; direct: direct messages between two users among many. */
const MODE = process.argv[4] ?? 'broadcast';
const LOAD_AT_START = loadavg()[0];
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** Each user's organization host (their key works only there), filled once the organizations exist. */
const hostOf = new Map();
const call = (baseUrl, user, method, path, params) =>
  apiCall(agent, baseUrl, user, method, path, params, hostOf.get(user));

const publishConfirmed = (channel, envelope) => publishMessageSent(channel, info.exchange, envelope);

// The gateway's credential cache is kept warm for the whole run (its expiry sends every poll of a user to settings
// at once), so the run measures event delivery rather than re-authentication.
// Servers of its own, so that their CPU is this run's alone. BENCH_PROFILE=<dir>: every process writes a CPU
// profile there (the run is then not recorded).
const { stack, info, servers, destroyServers } = await startPrivateBenchStack({
  CONFAB_PROXY_MAX_SOCKETS: String(QUEUES * 2),
  // A thousand queues over the nine development users: past the default cap of 100 per user.
  EVENTS_MAX_QUEUES_PER_USER: '0',
  CONFAB_OUTBOX_POLL_MS: '100',
  CONFAB_AUTH_CACHE_TTL_SECONDS: '3600',
});
let stopping = false;
try {
  // Direct mode spreads the queues over many organizations' users (about 5 queues each).
  const worlds = [];
  for (let w = 0; w < (MODE === 'direct' ? Math.max(1, Math.ceil(QUEUES / 50)) : 1); w++)
    worlds.push(await devkit.createWorld(info));
  const world = worlds[0];
  for (const w of worlds) for (const u of Object.values(w.users)) hostOf.set(u, w.host);
  const users = worlds.flatMap((w) => Object.values(w.users).filter((u) => !u.isBot));
  const sender = world.user('hamlet');
  const base = info.gatewayUrl;

  const queues = await registerQueues(
    (user, method, path, params) => call(base, user, method, path, params),
    users,
    QUEUES,
  );

  // Each queue keeps one long poll open; arrivals are stamped as they come.
  const arrivals = new Map(); // message id -> array of arrival times
  const errors = [];
  let expected = null;
  let expectedCount = QUEUES;
  let received = 0;
  let onAllReceived = () => undefined;
  const pollForever = async (q) => {
    while (!stopping) {
      let response;
      try {
        response = await call(base, q.user, 'GET', '/events', { queue_id: q.queueId, last_event_id: q.last });
      } catch (err) {
        // A transient failure (the gateway's own authentication call, say) is retried like a client would.
        if (stopping) return;
        errors.push(err.message);
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const now = performance.now();
      for (const event of response.events) {
        q.last = Math.max(q.last, event.id);
        if (event.type !== 'message') continue;
        const list = arrivals.get(event.message.id) ?? [];
        list.push(now);
        arrivals.set(event.message.id, list);
        if (event.message.id === expected && ++received === expectedCount) onAllReceived();
      }
    }
  };
  for (const q of queues) void pollForever(q);
  await new Promise((r) => setTimeout(r, 1000));

  /** Sends MESSAGES (+3 warm-up) messages one after another; `send` returns the message id and its start time. */
  async function measure(send) {
    const latencies = [];
    for (let m = 0; m < MESSAGES + 3; m++) {
      received = 0;
      const done = new Promise((resolve) => (onAllReceived = resolve));
      const { id, startedAt, reaching = QUEUES } = await send(m);
      expected = id;
      expectedCount = reaching;
      received = arrivals.get(id)?.length ?? 0;
      if (received >= reaching) onAllReceived();
      const progress = setInterval(() => console.log(`[bench] message ${m}: ${received}/${reaching}`), 5000);
      await done;
      clearInterval(progress);
      // The first three warm up the JIT, connection pools and caches.
      if (m >= 3) latencies.push(...arrivals.get(id).map((t) => t - startedAt));
      await new Promise((r) => setTimeout(r, 150));
    }
    return latencies.sort((a, b) => a - b);
  }

  const row = (name, l) =>
    `| ${name} | ${l.length} | ${percentile(l, 50).toFixed(1)} | ${percentile(l, 99).toFixed(1)} | ${l.at(-1).toFixed(1)} |`;
  if (MODE === 'direct') {
    const queuesOf = (user) => queues.filter((q) => q.user.id === user.id).length;
    const sendTimes = [];
    const latencies = await measure(async (m) => {
      const w = worlds[m % worlds.length];
      const from = w.user('hamlet');
      const to = w.user('othello');
      const startedAt = performance.now();
      const sent = await call(base, from, 'POST', '/messages', { type: 'direct', to: [to.id], content: `dm ${m}` });
      if (m >= 3) sendTimes.push(performance.now() - startedAt);
      return { id: sent.id, startedAt, reaching: queuesOf(from) + queuesOf(to) };
    });
    sendTimes.sort((a, b) => a - b);
    // The events service alone: the same kind of message.sent published straight on the exchange.
    const connection = await connect(info.amqpUrl, { noDelay: true });
    const channel = await connection.createConfirmChannel();
    const viaBroker = await measure(async (m) => {
      const w = worlds[m % worlds.length];
      const from = w.user('hamlet');
      const to = w.user('othello');
      const id = 200_000_000 + m;
      const participants = [from, to].map((u) => ({
        id: u.id,
        email: u.email,
        full_name: u.fullName,
        is_mirror_dummy: false,
      }));
      const payload = {
        message: {
          id,
          type: 'private',
          sender_id: from.id,
          sender_email: from.email,
          sender_full_name: from.fullName,
          sender_realm_str: w.realm.string_id,
          recipient_id: 1,
          display_recipient: participants,
          subject: '',
          topic_links: [],
          content: `dm ${m}`,
          rendered_content: `<p>dm ${m}</p>`,
          timestamp: Math.floor(Date.now() / 1000),
          client: 'bench',
          is_me_message: false,
          reactions: [],
          submessages: [],
        },
        user_ids: [from.id, to.id],
        flags: {},
        stream: null,
        local_id: null,
        sender_queue_id: null,
      };
      const envelope = events.makeEnvelope(events.contracts.messageSent, payload, { realmId: w.realm.realm_id });
      const startedAt = performance.now();
      await publishConfirmed(channel, envelope);
      return { id, startedAt, reaching: queuesOf(from) + queuesOf(to) };
    });
    await connection.close();
    const section = `
## Events: direct-message latency with ${QUEUES} connected queues — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}. ${QUEUES} queues long-polling through the gateway, spread over ${users.length} users of
${worlds.length} organizations (about ${Math.round(QUEUES / users.length)} queues each), one events replica; ${MESSAGES}
direct messages (after 3 warm-ups), each between two users of one organization, so each reaches the ~${Math.round(
      (2 * QUEUES) / users.length,
    )} queues of its sender and recipient while the other queues stay connected. The first row runs from the start of
POST /messages to each of those polls returning the message event; the second is the send alone; the third runs from
publishing an equivalent message.sent on the exchange (the events service and the gateway only). The stack, the pollers and
PostgreSQL/Redis/RabbitMQ share the machine, with other work on it (load average ${LOAD_AT_START.toFixed(1)} at the
start). Script: \`bench/events-latency.mjs ${QUEUES} ${MESSAGES} direct\`.

| from | samples | p50 ms | p99 ms | max ms |
|---|---|---|---|---|
${row('start of POST /messages (whole path)', latencies)}
${row('POST /messages alone (until its answer)', sendTimes)}
${row('publish of message.sent on the exchange (events service + gateway)', viaBroker)}

Failed polls retried during the run: ${errors.length}. Target: p99 under 50 ms — ${percentile(latencies, 99) < 50 ? 'met' : 'not met'} on this run.
`;
    console.log(section);
    if (process.env.BENCH_RECORD !== '0' && !process.env.BENCH_PROFILE) record(section);
    process.exitCode = 0;
    throw Object.assign(new Error('done'), { done: true });
  }

  // CPU of every process (and of this one, whose pollers play the 1,000 clients) per message sent.
  const roots = processRoots(stack, servers);
  const cpuBefore = snapshot(roots);
  const pollersBefore = process.cpuUsage();
  const viaMessaging = await measure(async (m) => {
    const startedAt = performance.now();
    const sent = await call(base, sender, 'POST', '/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'bench',
      content: `message ${m}`,
    });
    return { id: sent.id, startedAt };
  });
  const cpu = perOperation(cpuBefore, snapshot(roots), MESSAGES + 3);
  const pollers = process.cpuUsage(pollersBefore);
  const pollersMs = (pollers.user + pollers.system) / 1000 / (MESSAGES + 3);

  // The events service alone: message.sent published straight on the exchange, as messaging's relay would.
  const connection = await connect(info.amqpUrl, { noDelay: true });
  const channel = await connection.createConfirmChannel();
  const template = (
    await call(base, sender, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      apply_markdown: false,
    }).catch(() => ({ messages: [] }))
  ).messages?.[0];
  const viaBroker = await measure(async (m) => {
    const id = 100_000_000 + m;
    const payload = channelMessageSent({
      id,
      sender,
      realm: world.realm,
      template,
      userIds: users.map((u) => u.id),
      content: `direct ${m}`,
    });
    const envelope = events.makeEnvelope(events.contracts.messageSent, payload, { realmId: world.realm.realm_id });
    const startedAt = performance.now();
    await publishConfirmed(channel, envelope);
    return { id, startedAt };
  });
  await connection.close();

  const p99 = percentile(viaMessaging, 99);
  const section = `
## Events: channel-message latency with ${QUEUES} connected queues, each message to all of them — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}. ${QUEUES} queues long-polling through the gateway (spread over ${users.length} users, all
subscribed to Verona), ${benchReplicas()} replica(s) of each process; ${MESSAGES} messages sent one after another (after 3 warm-ups), each
waited for at every queue. The first row runs from the start of POST /messages to each poll returning the message
event (the send itself, messaging's outbox relay, the broker, the fan-out and the long-poll answer through the
gateway); the second from publishing a message.sent envelope on the exchange (the events service and the gateway
only). The stack, the pollers and PostgreSQL/Redis/RabbitMQ share the machine, with other work on it (load average
${LOAD_AT_START.toFixed(1)} at the start). Script: \`bench/events-latency.mjs ${QUEUES} ${MESSAGES}\`.

| from | samples | p50 ms | p99 ms | max ms |
|---|---|---|---|---|
${row('start of POST /messages (whole path)', viaMessaging)}
${row('publish of message.sent on the exchange (events service + gateway)', viaBroker)}

Failed polls retried during the run: ${errors.length}${errors.length ? ` (${[...new Set(errors)].slice(0, 3).join('; ')})` : ''}.

CPU per message of the first row (each answering ${QUEUES} polls and taking ${QUEUES} new ones), per process, ms (/proc;
"pollers" is this script, whose polls play the clients):

| ${Object.keys(cpu.parts).join(' | ')} | **total** | pollers |
|${Object.keys(cpu.parts)
    .map(() => '---:')
    .join('|')}|---:|---:|
| ${Object.values(cpu.parts)
    .map((v) => v.toFixed(1))
    .join(' | ')} | **${cpu.total.toFixed(1)}** | ${pollersMs.toFixed(1)} |

Target: p99 ≤ 250 ms from POST /messages when every message wakes all ${QUEUES} queues — ${p99 <= 250 ? 'met' : 'not met'} on
this run (the 50 ms target of the direct-message run is for messages that wake a few queues).
`;
  console.log(section);

  if (process.env.BENCH_RECORD !== '0' && !process.env.BENCH_PROFILE) record(section);
} catch (err) {
  if (!err.done) throw err;
} finally {
  stopping = true;
  await stack.stop({ cleanUp: true });
  await destroyServers();
  process.exit(0);
}
