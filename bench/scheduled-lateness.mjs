// Scheduled-message delivery lateness: COUNT messages scheduled (through the gateway) for the same second, then
// delivered by one messaging worker. Lateness = the delivered message's date_sent minus the due second; drain =
// last delivery minus the due second. Read from the messaging database (delivered_message_id → messages.date_sent),
// after every row is delivered.
// Usage: pnpm --filter @confab/bench scheduled [count] [lead seconds] [worker processes]
import { loadavg } from 'node:os';
import { Agent, request } from 'node:http';
import pg from 'pg';
import devkit from '@confab/devkit';
import { perOperation, processRoots, snapshot } from './cpu.mjs';
import { machine, record, startPrivateBenchStack, topStatements } from './lib.mjs';

const COUNT = Number(process.argv[2] ?? 5000);
/** Seconds between the start of scheduling and the due time; scheduling must finish before it. */
const LEAD = Number(process.argv[3] ?? 90);
/** messaging-worker processes (BullMQ competing consumers of the same queue). */
const WORKERS = Number(process.argv[4] ?? 1);
const CONCURRENCY = 32;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');

function post(baseUrl, host, user, path, params) {
  const body = Buffer.from(
    new URLSearchParams(
      Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString(),
  );
  const headers = {
    host,
    authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': body.length,
  };
  return new Promise((resolve, reject) => {
    const req = request(new URL(`/api/v1${path}`, baseUrl), { method: 'POST', headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString());
        if (res.statusCode !== 200) reject(new Error(`POST ${path}: ${res.statusCode} ${parsed.msg}`));
        else resolve(parsed);
      });
    });
    req.on('error', reject);
    req.write(body);
    req.end();
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const CONCURRENCY_ENV = process.env.MESSAGING_SCHEDULED_CONCURRENCY;
// BENCH_STATEMENTS=1 prints the statements PostgreSQL spent most time on during the drain, per delivered message.
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
// Servers of its own, so that their CPU is this run's alone. BENCH_PROFILE=<dir>: every process writes a CPU
// profile there (the run is then not recorded).
const { stack, info, servers, postgresUrl, destroyServers } = await startPrivateBenchStack(
  {
    CONFAB_OUTBOX_POLL_MS: '100',
    ...(CONCURRENCY_ENV ? { MESSAGING_SCHEDULED_CONCURRENCY: CONCURRENCY_ENV } : {}),
  },
  { statements: STATEMENTS },
);
const pool = new pg.Pool({ connectionString: info.databases.messaging, max: 2 });
const extraWorkers = [];
try {
  const workerSpec = devkit.processes().find((p) => p.name === 'messaging-worker');
  const workerEnv = stack.describeProcesses()['messaging-worker'].env;
  for (let w = 1; w < WORKERS; w++) {
    const proc = new devkit.ManagedProcess(workerSpec, workerEnv, `${info.logDir}/messaging-worker-${w}.log`, false);
    proc.start();
    extraWorkers.push(proc);
  }
  const world = await devkit.createWorld(info);
  const user = world.user('hamlet');
  const host = world.host;
  const verona = await new Promise((resolve, reject) => {
    const url = new URL(`/api/v1/get_stream_id?stream=Verona`, info.gatewayUrl);
    const headers = { host, authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` };
    request(url, { headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()).stream_id));
    })
      .on('error', reject)
      .end();
  });

  const due = Math.floor(Date.now() / 1000) + LEAD;
  const scheduleStarted = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COUNT) {
        const i = next++;
        await post(info.gatewayUrl, host, user, '/scheduled_messages', {
          type: 'stream',
          to: String(verona),
          topic: `lateness ${i % 50}`,
          content: `scheduled ${i}`,
          scheduled_delivery_timestamp: due,
        });
      }
    }),
  );
  const scheduleSeconds = (Date.now() - scheduleStarted) / 1000;
  const margin = due * 1000 - Date.now();
  console.log(`[bench] ${COUNT} scheduled in ${scheduleSeconds.toFixed(1)} s; due in ${(margin / 1000).toFixed(1)} s`);
  if (margin < 0) throw new Error(`scheduling took longer than the lead (${LEAD} s): raise it`);

  // CPU of every process (Confab's and the machine's PostgreSQL, Redis and RabbitMQ) from just before the due time
  // to the last delivery: what one delivered message costs the whole system, part by part.
  const roots = processRoots(stack, servers);
  // Wait until every row is delivered (or failed), at most 10 minutes after the due time.
  const { loadAtDue, cpuBefore } = await (async () => {
    await sleep(Math.max(0, margin - 300));
    if (STATEMENTS) await topStatements(postgresUrl, 1, 0);
    const cpuBefore = snapshot(roots);
    await sleep(300);
    return {
      cpuBefore,
      loadAtDue: loadavg()
        .map((l) => l.toFixed(1))
        .join(' / '),
    };
  })();
  for (;;) {
    const { rows } = await pool.query(
      'SELECT count(*) FILTER (WHERE NOT delivered AND NOT failed) AS pending, count(*) FILTER (WHERE failed) AS failed FROM scheduled_messages',
    );
    if (Number(rows[0].pending) === 0) break;
    if (Date.now() > due * 1000 + 600_000) throw new Error(`still ${rows[0].pending} pending 10 minutes after due`);
    await sleep(500);
  }
  const cpu = perOperation(cpuBefore, snapshot(roots), COUNT);
  if (STATEMENTS) await topStatements(postgresUrl, COUNT, 20);
  const { rows } = await pool.query(
    `SELECT extract(epoch FROM m.date_sent - s.scheduled_at) * 1000 AS late_ms
       FROM scheduled_messages s JOIN messages m ON m.id = s.delivered_message_id
      WHERE s.delivered ORDER BY 1`,
  );
  const { rows: failedRows } = await pool.query('SELECT count(*) AS n FROM scheduled_messages WHERE failed');
  const { rows: dupes } = await pool.query(
    "SELECT count(*) AS n FROM messages WHERE content LIKE 'scheduled %' GROUP BY content HAVING count(*) > 1",
  );
  const late = rows.map((r) => Number(r.late_ms)).sort((a, b) => a - b);
  const drain = late[late.length - 1];
  const section = `
## Scheduled messages: delivery lateness of ${COUNT} messages due in the same second — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}, a stack of its own on private PostgreSQL, Redis and RabbitMQ (load average at the start ${loadAtStart}; at the due
time ${loadAtDue}). ${COUNT} channel messages (Verona, ~10 subscribers) scheduled through the gateway by
${CONCURRENCY} concurrent clients in ${scheduleSeconds.toFixed(1)} s, all due at the same second; ${WORKERS} messaging-worker
process(es) (BullMQ delayed jobs, concurrency ${process.env.MESSAGING_SCHEDULED_CONCURRENCY ?? 16} each), each delivery the
full POST /messages path plus the guarded claim in one transaction. Lateness = the message's date_sent minus the due time
(the start of the due second, when the delayed jobs fire). Script: \`bench/scheduled-lateness.mjs ${COUNT} ${LEAD} ${WORKERS}\`.

| delivered | failed | duplicates | p50 lateness ms | p99 lateness ms | max (time to drain) ms | deliveries/s |
|---|---|---|---|---|---|---|
| ${late.length} | ${failedRows[0].n} | ${dupes.length} | ${percentile(late, 50).toFixed(0)} | ${percentile(late, 99).toFixed(0)} | ${drain.toFixed(0)} | ${(late.length / (drain / 1000)).toFixed(0)} |

CPU per delivered message, per process, from 0.3 s before the due time to the last delivery (ms; /proc):

| ${Object.keys(cpu.parts).join(' | ')} | **total** |
|${Object.keys(cpu.parts)
    .map(() => '---:')
    .join('|')}|---:|
| ${Object.values(cpu.parts)
    .map((v) => v.toFixed(2))
    .join(' | ')} | **${cpu.total.toFixed(2)}** |

Target: p99 lateness under 2 s — ${percentile(late, 99) < 2000 ? 'met' : 'not met'} on this run.
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0' && !process.env.BENCH_PROFILE) record(section);
} finally {
  await Promise.all(extraWorkers.map((w) => w.stop()));
  await pool.end();
  await stack.stop({ cleanUp: true });
  await destroyServers();
}
