// CPU per operation, per process: the figure to improve (throughput on a shared machine is too noisy). A stack of its
// own on private PostgreSQL, Redis and RabbitMQ servers (so their CPU is this run's alone), then for each operation a
// warm-up and a measured run through the gateway; the CPU every process spent (utime + stime from /proc/<pid>/stat,
// children included for PostgreSQL and RabbitMQ) is divided by the operations. Only the public API is used, so the
// same script measures any checkout. Usage:
//   pnpm --filter @confab/bench cpu [operations] [connections] [label]      (defaults 3000, 16, "")
// BENCH_OPS="channel send,GET /users/me" measures only those rows; BENCH_PROFILE=<dir> starts every process with
// --cpu-prof into <dir> (for reading where the time goes; such a run is not recorded, profiling slows everything).
// BENCH_STATEMENTS=1 prints the statements PostgreSQL spent most time on (pg_stat_statements), per operation.
import process from 'node:process';
import devkit from '@confab/devkit';
import { processRoots, snapshot } from './cpu.mjs';
import { FLUTTER_REGISTER, load, machine, record, startPrivateBenchStack, topStatements } from './lib.mjs';

const OPERATIONS = Number(process.argv[2] ?? 3000);
const CONNECTIONS = Number(process.argv[3] ?? 16);
const LABEL = process.argv[4] ?? '';
const WARM_UP = Math.min(500, Math.ceil(OPERATIONS / 5));
const ONLY = process.env.BENCH_OPS ? new Set(process.env.BENCH_OPS.split(',').map((s) => s.trim())) : undefined;
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** The sender's queue id the local-id sends name (one per run: a repeat of a local id is the same message). */
const BENCH_QUEUE_ID = `bench-${Date.now().toString(36)}`;

/**
 * ANALYZE every database, as autovacuum does within a minute of such growth: the set-up writes thousands of rows in
 * seconds, and with the statistics of the empty tables the planner sorts a whole channel for each page of history.
 */
async function analyze(url) {
  const pg = await import('pg');
  const admin = new pg.default.Client({ connectionString: `${url}/postgres` });
  await admin.connect();
  const { rows } = await admin.query(
    `SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres'`,
  );
  await admin.end();
  for (const { datname } of rows) {
    const client = new pg.default.Client({ connectionString: `${url}/${datname}` });
    await client.connect();
    await client.query('ANALYZE');
    await client.end();
  }
}

const form = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
// Servers of its own; with BENCH_PROFILE every process writes a CPU profile into PROFILE_DIR.
// One user registers thousands of queues here: no per-user cap (0), as in the other events benchmarks.
const { stack, info, servers, postgresUrl, destroyServers } = await startPrivateBenchStack(
  { EVENTS_MAX_QUEUES_PER_USER: '0' },
  { statements: STATEMENTS },
);
const rows = [];
try {
  const world = await devkit.createWorld(info);
  const hamlet = world.user('hamlet');
  const headers = {
    authorization: `Basic ${Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString('base64')}`,
    host: world.host,
    'content-type': 'application/x-www-form-urlencoded',
  };
  const api = `${info.gatewayUrl}/api/v1`;
  const client = world.as('hamlet');
  const verona = (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
  const subscribers = (await client.get(`/streams/${verona}/members`)).body.subscribers?.length ?? 'all';
  for (let i = 0; i < 60; i++) {
    await client.post('/messages', { type: 'stream', to: verona, topic: 'history', content: `message ${i}` });
  }
  const targets = [];
  for (let i = 0; i < OPERATIONS + WARM_UP; i++) {
    const sent = await world
      .as('othello')
      .post('/messages', { type: 'stream', to: verona, topic: 'react', content: `r${i}` });
    targets.push(sent.body.id);
  }
  const groups = processRoots(stack, servers);
  let next = 0;

  const operations = [
    {
      name: 'channel send',
      request: () => ({
        method: 'POST',
        path: '/api/v1/messages',
        body: form({ type: 'stream', to: verona, topic: 'bench', content: 'hello from the bench' }),
      }),
    },
    {
      // As Zulip's clients send: with the sender's queue and a local id of each message (a retried send posts once).
      name: 'channel send (local_id)',
      request: () => ({
        method: 'POST',
        path: '/api/v1/messages',
        body: form({
          type: 'stream',
          to: verona,
          topic: 'bench',
          content: 'hello from the bench',
          queue_id: BENCH_QUEUE_ID,
          local_id: `${next++}`,
        }),
      }),
    },
    {
      name: 'history read (50)',
      request: () => ({
        method: 'GET',
        path: `/api/v1/messages?${form({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: verona }] })}`,
      }),
    },
    {
      name: 'reaction add',
      request: () => ({
        method: 'POST',
        path: `/api/v1/messages/${targets[next++ % targets.length]}/reactions`,
        body: form({ emoji_name: 'octopus' }),
      }),
    },
    {
      name: 'typing start',
      request: () => ({
        method: 'POST',
        path: '/api/v1/typing',
        body: form({ type: 'stream', stream_id: verona, topic: 'bench', op: 'start' }),
      }),
    },
    { name: 'GET /users/me', request: () => ({ method: 'GET', path: '/api/v1/users/me' }) },
    {
      // What every client sends once a minute (the Flutter app, the web client): its own presence, the others' back.
      name: 'presence update',
      request: () => ({
        method: 'POST',
        path: '/api/v1/users/me/presence',
        body: form({ status: 'active', slim_presence: true, last_update_id: -1, history_limit_days: 14 }),
      }),
    },
    {
      // What the Flutter app asks for on start (bench/lib.mjs; capacity.mjs sends the same); not measured by default.
      name: 'register (Flutter app)',
      optIn: true,
      request: () => ({ method: 'POST', path: '/api/v1/register', body: form(FLUTTER_REGISTER) }),
    },
    {
      // What the web client asks for on sign-in (web/src/lib/events.ts): the whole state; not measured by default.
      name: 'register (web client)',
      optIn: true,
      request: () => ({
        method: 'POST',
        path: '/api/v1/register',
        body: form({
          apply_markdown: true,
          client_gravatar: false,
          slim_presence: true,
          client_capabilities: { stream_typing_notifications: true },
        }),
      }),
    },
  ];

  for (const op of operations) {
    if (ONLY ? !ONLY.has(op.name) : op.optIn) continue;
    const run = (amount) =>
      load({
        url: api,
        headers,
        connections: CONNECTIONS,
        amount,
        requests: [{ setupRequest: (req) => ({ ...req, ...op.request() }) }],
        title: op.name,
      });
    await analyze(postgresUrl);
    await run(WARM_UP);
    // Only the measured run's statements (the set-up and warm-up are forgotten).
    if (STATEMENTS) await topStatements(postgresUrl, 1, 0);
    const before = snapshot(groups);
    const result = await run(OPERATIONS);
    const after = snapshot(groups);
    if (STATEMENTS) await topStatements(postgresUrl, result.total);
    const perOp = Object.fromEntries(
      Object.keys(groups).map((name) => [name, ((after[name] - before[name]) * 1000) / result.total]),
    );
    const total = Object.values(perOp).reduce((a, b) => a + b, 0);
    rows.push({ op: op.name, perOp, total, result });
    console.log(
      `[bench] ${op.name}: ${total.toFixed(2)} ms CPU/op, ${result.requestsPerSecond.toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors + result.non2xx}`,
    );
  }

  const names = Object.keys(rows[0].perOp).filter((n) => rows.some((r) => r.perOp[n] >= 0.005));
  const table = [
    `| operation | ${names.join(' | ')} | **total** | ops/s | p50 ms | p99 ms | errors |`,
    `|---|${names.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${r.op} | ${names.map((n) => r.perOp[n].toFixed(2)).join(' | ')} | **${r.total.toFixed(2)}** | ${r.result.requestsPerSecond.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${r.result.errors + r.result.non2xx} |`,
    ),
  ];
  console.log(table.join('\n'));
  if (!PROFILE_DIR)
    record(`## CPU per operation${LABEL ? ` — ${LABEL}` : ''} (bench/cpu-per-op.mjs, ${new Date().toISOString().slice(0, 10)})

${machine()}. A stack of its own on private PostgreSQL, Redis and RabbitMQ; ${OPERATIONS} operations per row after ${WARM_UP}
of warm-up, ${CONNECTIONS} connections, through the gateway as hamlet; channel sends to Verona (${subscribers} subscribers).
CPU ms per operation, per process (user + system time from /proc):

${table.join('\n')}`);
} finally {
  await stack.stop({ cleanUp: true });
  await destroyServers();
}
