// POST /messages to a channel through the gateway — a Verona-size channel (10 subscribers) and a 1,000-subscriber
// channel — beside the raw database rate of the same writes (the two statements the service runs per send, straight
// to PostgreSQL), measured in the same run. Usage: pnpm --filter @confab/bench send [connections] [seconds]
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import devkit from '@confab/devkit';
import { contracts, outboxRecord } from '@confab/events';
import { announceUsers, load, machine, record, startBenchStack } from './lib.mjs';

const require = createRequire(import.meta.url);
// The service's own statement builders, so the raw rate measures exactly the SQL the service sends.
const { sendStatement } = require('../services/messaging/dist/repositories/send-sql.js');

const connections = Number(process.argv[2] ?? 32);
const duration = Number(process.argv[3] ?? 15);
const BIG = 1000;

/** The statement the service runs per send (message, rows, outbox events, topic policy), straight to PostgreSQL. */
async function rawDatabaseRate(info, realmId, sender, channel) {
  const pool = new pg.Pool({ connectionString: info.databases.messaging, max: 10 });
  let n = 0;
  const latencies = [];
  const end = Date.now() + duration * 1000;
  // The envelopes are built (and validated) once; each send gets fresh event ids.
  const topicEvent = outboxRecord(
    contracts.userTopicChanged,
    { user_id: sender.id, stream_id: channel.id, topic_name: 'raw', last_updated: 0, visibility_policy: 3 },
    { realmId },
  );
  const sentEvent = outboxRecord(
    contracts.messageSent,
    {
      message: {
        id: 0,
        type: 'stream',
        sender_id: sender.id,
        sender_email: sender.email,
        sender_full_name: sender.fullName,
        sender_realm_str: 'bench',
        recipient_id: channel.recipientId,
        stream_id: channel.id,
        display_recipient: channel.name,
        subject: 'raw',
        topic_links: [],
        content: 'hello from the bench',
        rendered_content: '<p>hello from the bench</p>',
        timestamp: Math.floor(Date.now() / 1000),
        client: 'bench',
        is_me_message: false,
        reactions: [],
        submessages: [],
      },
      user_ids: [],
      flags: {},
      stream: { name: channel.name, invite_only: false, is_web_public: false },
      local_id: null,
      sender_queue_id: null,
    },
    { realmId },
  );
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        const message = {
          realmId,
          senderId: sender.id,
          recipientId: channel.recipientId,
          channelId: channel.id,
          topic: 'raw',
          topicKey: 'raw',
          content: 'hello from the bench',
          renderedContent: '<p>hello from the bench</p>',
          dateSent: new Date(),
          sendingClient: 'bench',
          isMeMessage: false,
          hasAttachment: false,
          hasImage: false,
          hasLink: false,
        };
        const write = sendStatement({
          message,
          delivery: { channelId: channel.id, extraUserIds: [], baseFlags: 0, flagged: [] },
          sentEvent: { ...sentEvent, eventId: randomUUID() },
          otherEvents: [],
          policies: [],
          setFirstMessageId: false,
          senderPolicy: {
            follow: 3,
            unmute: 2,
            historyPublic: true,
            topicName: 'raw',
            event: { ...topicEvent, eventId: randomUUID() },
          },
        });
        await pool.query({ name: 'send', text: write.text, values: write.values });
        latencies.push(performance.now() - started);
        n++;
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return { requestsPerSecond: n / duration, p50: at(0.5), p99: at(0.99), non2xx: 0, errors: 0 };
}

async function channelFacts(info, name, realmId) {
  const pool = new pg.Pool({ connectionString: info.databases.messaging, max: 1 });
  const { rows } = await pool.query('SELECT id, recipient_id FROM channels WHERE realm_id = $1 AND name = $2', [
    realmId,
    name,
  ]);
  await pool.end();
  return { id: rows[0].id, recipientId: rows[0].recipient_id, name };
}

const { stack, info } = await startBenchStack();
try {
  const world = await devkit.createWorld(info);
  const realmId = world.realm.realm_id;
  const iago = world.as('iago');
  const readers = await announceUsers(info, realmId, BIG - 2);
  const created = await iago.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'town square' }],
    principals: [world.user('iago').id, world.user('hamlet').id, ...readers],
  });
  if (created.status !== 200) throw new Error(`creating the big channel failed: ${created.text}`);

  const hamlet = world.user('hamlet');
  const basic = `Basic ${Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString('base64')}`;
  const send = (to) => ({
    url: `${info.gatewayUrl}/api/v1/messages`,
    method: 'POST',
    headers: { authorization: basic, host: world.host, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      type: 'stream',
      to,
      topic: 'bench',
      content: 'hello from the bench',
      read_by_sender: 'true',
    }).toString(),
  });
  const results = [];
  for (const [label, to, size] of [
    ['Verona', 'Verona', 10],
    ['town square', 'town square', BIG],
  ]) {
    await load({ ...send(to), connections, duration: 3, title: `warm-up ${label}` });
    const api = await load({ ...send(to), connections, duration, title: label });
    const channel = await channelFacts(info, to, realmId);
    const raw = await rawDatabaseRate(
      info,
      realmId,
      { id: hamlet.id, email: hamlet.email, fullName: hamlet.fullName },
      channel,
    );
    results.push({ label, size, api, raw });
  }

  const verona = results[0];
  const share = Math.round((100 * verona.api.requestsPerSecond) / verona.raw.requestsPerSecond);
  const row = (name, r) =>
    `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`;
  const section = `
## Sending channel messages: POST /messages through the gateway — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}, shared with other engineers' processes during the run (load average at the end:
${(await import('node:os'))
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ')}). ${connections} connections, ${duration} s per
measurement after a 3 s warm-up; autocannon, every Confab process and PostgreSQL/Redis/RabbitMQ share the machine.
"raw database" runs the service's own statement per send (message, every receiver's row, the outbox events and the
sender's topic policy in one statement, as the service does for messages without mentions) from ${connections} concurrent callers over 10 connections, without HTTP, gateway, rendering or
checks. Script: \`bench/messages-send.mjs\`.

| scenario | sends/s | p50 ms | p99 ms | errors |
|---|---|---|---|---|
${results.map((r) => `${row(`${r.label} (${r.size} subscribers), through the gateway`, r.api)}\n${row(`${r.label}, raw database`, r.raw)}`).join('\n')}

Targets for Verona, set for 32 connections (this run: ${connections}): p99 ≤ 100 ms (${verona.api.p99} ms: ${verona.api.p99 <= 100 ? 'met' : 'not met'}), and through
the gateway ≥ 25% of the raw database rate of the same writes (${share}%: ${share >= 25 ? 'met' : 'not met'}).
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0') record(section);
} finally {
  await stack.stop({ cleanUp: true });
}
