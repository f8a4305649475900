// Shared pieces of the benchmark scripts: a private stack, autocannon runs, and writing RESULTS.md.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { connect } from 'amqplib';
import { request } from 'node:http';
import autocannon from 'autocannon';
import devkit from '@confab/devkit';
import { contracts, makeEnvelope } from '@confab/events';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * A whole Confab deployment of its own (fresh databases, random ports), with rate limits out of the way and quiet
 * logs, so a benchmark measures the code and not the limiter or the terminal.
 */
export async function startBenchStack(extraEnv = {}, givenInfra = undefined) {
  const infra = givenInfra ?? (await devkit.resolveInfrastructure((l) => console.log(`[bench] ${l}`)));
  const runId = `bench${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const stack = new devkit.Stack({
    infra,
    runId,
    ports: 'random',
    // BENCH_REPLICAS=2: two of every process behind the stack's local balancers (one replica versus two).
    replicas: benchReplicas(),
    logDir: join(BENCH_DIR, 'out', runId),
    env: {
      CONFAB_DEV_ENDPOINTS: '1',
      CONFAB_PASSWORD_HASH_COST: '10',
      // The benches' users have generated passwords: no strength estimate (zxcvbn) for each of thousands of them.
      CONFAB_PASSWORD_MIN_GUESSES: '0',
      CONFAB_RATE_LIMIT_PER_MINUTE: '1000000000',
      CONFAB_RATE_LIMIT_IP_PER_MINUTE: '1000000000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...extraEnv,
    },
  });
  const info = await stack.start();
  return { stack, info, infra };
}

/** How many replicas of every process a benchmark runs (BENCH_REPLICAS, default 1). */
export function benchReplicas() {
  return devkit.replicasFromEnv({ CONFAB_REPLICAS: process.env.BENCH_REPLICAS });
}

/** Runs autocannon and returns requests/s and latency percentiles (ms). */
export function load({
  url,
  headers = {},
  method = 'GET',
  body,
  requests,
  connections,
  duration,
  amount,
  title,
  overallRate,
}) {
  return new Promise((resolve, reject) => {
    const given = { url, headers, method, body, requests, connections, duration, amount, title, overallRate };
    const options = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    const instance = autocannon(options, (err, result) => {
      if (err) return reject(err);
      resolve({
        title,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        total: result.requests.total,
      });
    });
    instance.on('error', reject);
  });
}

export function machine() {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** Appends a dated section to bench/RESULTS.md. */
export function record(section) {
  // BENCH_RECORD=0: an exploratory run (a busy machine, a profile) that must not stand as a result.
  if (process.env.BENCH_RECORD === '0') return;
  const file = join(BENCH_DIR, 'RESULTS.md');
  if (!existsSync(file))
    writeFileSync(file, '# Benchmark results\n\nEach section is written by the script it names; newest last.\n');
  appendFileSync(file, `\n${section.trim()}\n`);
}

const portOf = (url) => Number(new URL(url).port);

/**
 * PostgreSQL, Redis and RabbitMQ servers of this run's own (so their CPU is this run's alone), as an infrastructure
 * for startBenchStack, with the ports processRoots needs to find them. `statements` preloads pg_stat_statements.
 * destroy() stops and removes them.
 */
export async function privateServers({ statements = false } = {}) {
  process.env.CONFAB_TEST_INFRA = 'local';
  if (statements)
    process.env.CONFAB_PRIVATE_PG_OPTIONS =
      '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on';
  const [postgres, redis, rabbitmq] = await Promise.all([
    devkit.privatePostgres(),
    devkit.privateRedis(),
    devkit.privateRabbitMQ(),
  ]);
  return {
    postgresUrl: postgres.url,
    servers: {
      postgres: { port: portOf(postgres.url) },
      redis: { port: portOf(redis.url) },
      rabbitmq: { port: portOf(rabbitmq.url) },
    },
    infra: {
      kind: 'local',
      postgresUrl: postgres.url,
      redisUrl: redis.url,
      amqpUrl: rabbitmq.url,
      stop: async () => undefined,
    },
    destroy: () => Promise.all([postgres.destroy(), redis.destroy(), rabbitmq.destroy()]),
  };
}

/**
 * A bench stack (startBenchStack) on servers of its own (privateServers), so that every process's CPU is this run's
 * alone; with BENCH_PROFILE=<dir> every process writes a CPU profile there. The servers are removed if the stack
 * fails to start; otherwise `destroyServers` removes them after `stack.stop`.
 */
export async function startPrivateBenchStack(extraEnv = {}, { statements = false } = {}) {
  const { postgresUrl, servers, infra, destroy } = await privateServers({ statements });
  const profile = process.env.BENCH_PROFILE
    ? { CONFAB_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` }
    : {};
  try {
    const { stack, info } = await startBenchStack({ ...extraEnv, ...profile }, infra);
    return { stack, info, servers, postgresUrl, destroyServers: destroy };
  } catch (err) {
    await destroy();
    throw err;
  }
}

/**
 * Prints the statements PostgreSQL spent most time on since the last call (pg_stat_statements of a server started by
 * privateServers({ statements: true })), per operation, then resets the counters.
 */
export async function topStatements(url, operations, limit = Number(process.env.BENCH_STATEMENTS_LIMIT ?? 12)) {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: `${url}/postgres` });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    // Statements of one family (a batch of 2 sends, of 3, ...) have texts of their own: grouped by their opening.
    const { rows } = await client.query(
      `SELECT sum(calls)::float8 AS calls, sum(plans)::float8 AS plans, sum(total_exec_time) AS total_exec_time, sum(total_plan_time) AS total_plan_time,
              count(*)::int AS variants, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query,
              coalesce(d.datname, '?') AS database
         FROM pg_stat_statements s LEFT JOIN pg_database d ON d.oid = s.dbid
        GROUP BY 6, 7 ORDER BY sum(total_exec_time) + sum(total_plan_time) DESC`,
    );
    const sum = (k) => rows.reduce((a, r) => a + Number(r[k]), 0);
    if (limit > 0)
      console.log(
        `  all statements: ${(sum('total_exec_time') / operations).toFixed(3)} ms/op (+${(sum('total_plan_time') / operations).toFixed(3)} planning)  ${(sum('calls') / operations).toFixed(2)} calls/op`,
      );
    for (const r of rows.slice(0, limit))
      console.log(
        `  ${(r.total_exec_time / operations).toFixed(3)} ms/op (+${(r.total_plan_time / operations).toFixed(3)} planning)  ${(r.calls / operations).toFixed(2)} calls/op  ${Math.round(r.calls)} calls, ${Math.round(r.plans)} plans  ${r.variants} text(s)  [${r.database.replace(/^confab_bench_\w+?_/, '')}] ${r.query}`,
      );
    await client.query('SELECT pg_stat_statements_reset()');
  } finally {
    await client.end();
  }
}

/** Announces users the way the settings service does, so the messaging service counts them as subscribers. */
export async function announceUsers(info, realmId, count) {
  const connection = await connect(info.amqpUrl);
  const channel = await connection.createConfirmChannel();
  const ids = [];
  let last;
  for (let i = 0; i < count; i++) {
    const id = 1_000_000_000 + realmId * 10_000 + i;
    const envelope = makeEnvelope(
      contracts.userCreated,
      {
        user: {
          user_id: id,
          realm_id: realmId,
          email: `reader${i}@example.com`,
          delivery_email: `reader${i}@example.com`,
          full_name: `Reader ${i}`,
          role: 400,
          is_bot: false,
          bot_type: null,
          bot_owner_id: null,
          is_active: true,
          timezone: '',
          date_joined: new Date().toISOString(),
        },
      },
      { realmId },
    );
    channel.publish(info.exchange, 'user.created', Buffer.from(JSON.stringify(envelope)), { persistent: true });
    ids.push(id);
    last = envelope.event_id;
  }
  await channel.waitForConfirms();
  await connection.close();
  const token = devkit.serviceToken(info);
  for (;;) {
    const response = await fetch(`${info.serviceUrls.messaging}/internal/events/processed/${last}`, {
      headers: { 'x-confab-identity': token },
    });
    if ((await response.json()).processed) return ids;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * One API call as `user` (Basic auth, form-encoded), over `agent`, to the organization's `host` (a key works only on
 * its own organization's host); resolves with the parsed answer, rejects unless 200.
 */
export function apiCall(agent, baseUrl, user, method, path, params, host) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) body.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  const url = new URL(`/api/v1${path}`, baseUrl);
  let payload;
  if (method === 'GET') url.search = body.toString();
  else payload = Buffer.from(body.toString());
  const headers = { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` };
  if (host) headers.host = host;
  if (payload)
    Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': payload.length });
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString());
        if (res.statusCode !== 200) reject(new Error(`${method} ${path}: ${res.statusCode} ${parsed.msg}`));
        else resolve(parsed);
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Publishes a message.sent envelope on `exchange` and waits for the broker's confirmation. */
export function publishMessageSent(channel, exchange, envelope) {
  return new Promise((resolve, reject) =>
    channel.publish(exchange, 'message.sent', Buffer.from(JSON.stringify(envelope)), { persistent: true }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
}

/**
 * The payload of a message.sent for a message to Verona by `sender` that reaches `userIds`, as messaging's relay
 * would publish it (`template`: a message read back, for its channel's ids).
 */
export function channelMessageSent({ id, sender, realm, template, userIds, content }) {
  return {
    message: {
      id,
      type: 'stream',
      sender_id: sender.id,
      sender_email: sender.email,
      sender_full_name: sender.fullName,
      sender_realm_str: realm.string_id,
      recipient_id: template?.recipient_id ?? 1,
      stream_id: template?.stream_id ?? 1,
      display_recipient: 'Verona',
      subject: 'bench',
      topic_links: [],
      content,
      rendered_content: `<p>${content}</p>`,
      timestamp: Math.floor(Date.now() / 1000),
      client: 'bench',
      is_me_message: false,
      reactions: [],
      submessages: [],
    },
    user_ids: userIds,
    flags: {},
    stream: { name: 'Verona', invite_only: false, is_web_public: false },
    local_id: null,
    sender_queue_id: null,
  };
}

/**
 * Registers `count` event queues for message events, spread over `users` in turn, 20 at a time, through `call`
 * (user, method, path, params); each with its user, queue id and last event id. A registration the stack refuses
 * while busy (503: a service's part of the initial state took too long) is tried again, as a client would.
 */
export async function registerQueues(call, users, count) {
  const register = async (user) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await call(user, 'POST', '/register', { event_types: ['message'] });
        return { user, queueId: r.queue_id, last: r.last_event_id };
      } catch (err) {
        if (attempt === 5 || !/: 503 /.test(err.message)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  };
  const queues = [];
  for (let i = 0; i < count; i += 20) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 20); j++) batch.push(register(users[j % users.length]));
    queues.push(...(await Promise.all(batch)));
  }
  return queues;
}

/** The p-th percentile of ascending `sorted` values (nearest rank). */
/**
 * What the Zulip Flutter app sends to /register (zulip-flutter lib/api/route/events.dart, registerQueue): no
 * fetch_event_types (the whole state), a mobile queue, and its client_capabilities. One definition for every bench.
 */
export const FLUTTER_REGISTER = {
  idle_queue_timeout: JSON.stringify('mobile'),
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
