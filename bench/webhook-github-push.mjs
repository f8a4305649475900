// Issue 41: CPU per incoming webhook request, per process, for a GitHub push of 20 commits, beside a plain
// POST /messages of the same text. A stack of its own on private PostgreSQL, Redis and RabbitMQ (as cpu-per-op.mjs,
// whose /proc accounting this reuses: utime + stime of every process, children included for the servers); hamlet
// makes an incoming webhook bot, and each row is a warm-up then a measured run through the gateway. The push payload
// is this script's own (GitHub's documented push shape), not Zulip's fixture. The plain send posts, as the same bot,
// the Markdown the webhook produced, read back once, so both rows store and render the same message. Usage:
//   pnpm --filter @confab/bench webhook [requests] [connections] [label]      (defaults 1000, 8, "")
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import devkit from '@confab/devkit';
import { processRoots, snapshot, perOperation } from './cpu.mjs';
import { load, machine, record, startPrivateBenchStack } from './lib.mjs';

const REQUESTS = Number(process.argv[2] ?? 1000);
const CONNECTIONS = Number(process.argv[3] ?? 8);
const LABEL = process.argv[4] ?? '';
const WARM_UP = Math.min(200, Math.ceil(REQUESTS / 5));
const COMMITS = 20;
const IDLE_SECONDS = 10;
// BENCH_ROWS=webhook or plain: that row alone (with BENCH_PROFILE, one profile per row; such a run is not recorded).
const ONLY = process.env.BENCH_ROWS ? new Set(process.env.BENCH_ROWS.split(',').map((s) => s.trim())) : undefined;

/** A GitHub push of `COMMITS` commits to acme/widgets' main branch, by two authors (X-GitHub-Event: push). */
function pushPayload() {
  const sha = (i) => (i + 1).toString(16).padStart(8, '0').repeat(5);
  const commits = Array.from({ length: COMMITS }, (_, i) => ({
    id: sha(i),
    url: `https://github.com/acme/widgets/commit/${sha(i)}`,
    message: `Widget change ${i + 1}: adjust the spindle tolerance and its test\n\nLonger explanation of the change.`,
    author: i % 3 === 0 ? { name: 'Grace Hopper', username: 'grace' } : { name: 'Ada Lovelace', username: 'ada' },
  }));
  return {
    ref: 'refs/heads/main',
    before: sha(100),
    after: sha(COMMITS - 1),
    compare: `https://github.com/acme/widgets/compare/${sha(100).slice(0, 12)}...${sha(COMMITS - 1).slice(0, 12)}`,
    created: false,
    deleted: false,
    forced: false,
    commits,
    head_commit: commits[COMMITS - 1],
    repository: {
      id: 4242,
      name: 'widgets',
      full_name: 'acme/widgets',
      html_url: 'https://github.com/acme/widgets',
      private: false,
    },
    pusher: { name: 'ada', email: 'ada@example.com' },
    sender: { login: 'ada', id: 7, html_url: 'https://github.com/ada' },
  };
}

const form = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

const { stack, info, servers, destroyServers } = await startPrivateBenchStack();
const rows = [];
try {
  const world = await devkit.createWorld(info);
  const hamlet = world.as('hamlet');
  const created = await hamlet.post('/bots', { full_name: 'Bench hook', short_name: 'benchhook', bot_type: 2 });
  if (created.status !== 200) throw new Error(`POST /bots: ${created.status} ${JSON.stringify(created.body)}`);
  const botId = created.body.user_id;
  const botKey = created.body.api_key;
  const members = (await hamlet.get('/users', {})).body.members;
  const botEmail = members.find((u) => u.user_id === botId).email;
  const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
  const subscribers = (await hamlet.get(`/streams/${verona}/members`)).body.subscribers?.length ?? 'all';

  const api = `${info.gatewayUrl}/api/v1`;
  const hookPath = `/api/v1/external/github?${form({ api_key: botKey, stream: 'Verona' })}`;
  const hookBody = JSON.stringify(pushPayload());
  const hookHeaders = { host: world.host, 'content-type': 'application/json', 'x-github-event': 'push' };

  // One push first: what it posts is the plain send's content, and a check that the webhook works at all.
  const first = await fetch(`${info.gatewayUrl}${hookPath}`, { method: 'POST', headers: hookHeaders, body: hookBody });
  if (first.status !== 200) throw new Error(`the webhook answered ${first.status}: ${await first.text()}`);
  const readBack = async (applyMarkdown) =>
    (
      await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        apply_markdown: applyMarkdown,
        narrow: JSON.stringify([{ operator: 'sender', operand: botId }]),
      })
    ).body.messages[0];
  const posted = await readBack(false);
  const rendered = await readBack(true);
  if (!posted.content.includes(`${COMMITS} commits`)) throw new Error(`unexpected push message: ${posted.content}`);
  const topic = posted.subject;
  const sizes = { markdown: posted.content.length, html: rendered.content.length, payload: hookBody.length };

  const botHeaders = {
    authorization: `Basic ${Buffer.from(`${botEmail}:${botKey}`).toString('base64')}`,
    host: world.host,
    'content-type': 'application/x-www-form-urlencoded',
  };
  const plainBody = form({ type: 'stream', to: verona, topic, content: posted.content });
  const plainCheck = await fetch(`${api}/messages`, { method: 'POST', headers: botHeaders, body: plainBody });
  if (plainCheck.status !== 200) throw new Error(`the bot's POST /messages answered ${plainCheck.status}`);
  const plainRendered = (await readBack(true)).content.length;

  const groups = processRoots(stack, servers);
  const operations = [
    {
      key: 'webhook',
      name: `GitHub push webhook (${COMMITS} commits)`,
      headers: hookHeaders,
      request: { method: 'POST', path: hookPath, body: hookBody },
    },
    {
      key: 'plain',
      name: 'plain POST /messages (same text)',
      headers: botHeaders,
      request: { method: 'POST', path: '/api/v1/messages', body: plainBody },
    },
  ];
  for (const op of operations) {
    if (ONLY && !ONLY.has(op.key)) continue;
    const run = (amount) =>
      load({
        url: api,
        headers: op.headers,
        connections: CONNECTIONS,
        amount,
        requests: [{ setupRequest: (req) => ({ ...req, ...op.request }) }],
        title: op.name,
      });
    await run(WARM_UP);
    const before = snapshot(groups);
    const started = performance.now();
    const result = await run(REQUESTS);
    const seconds = (performance.now() - started) / 1000;
    const after = snapshot(groups);
    const { parts, total } = perOperation(before, after, result.total);
    rows.push({ op: op.name, perOp: parts, total, result, seconds });
    console.log(
      `[bench] ${op.name}: ${total.toFixed(2)} ms CPU/request, ${result.requestsPerSecond.toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors + result.non2xx}`,
    );
  }

  const names = Object.keys(rows[0].perOp).filter((n) => rows.some((r) => r.perOp[n] >= 0.005));
  const table = [
    `| request | ${names.join(' | ')} | **total** | requests/s | p50 ms | p99 ms | errors |`,
    `|---|${names.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${r.op} | ${names.map((n) => r.perOp[n].toFixed(2)).join(' | ')} | **${r.total.toFixed(2)}** | ${r.result.requestsPerSecond.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${r.result.errors + r.result.non2xx} |`,
    ),
  ];
  // What the stack spends with nothing sent (relay polls, timers, the servers' housekeeping) is charged to each row
  // in proportion to its duration, so a slower row looks dearer: measured here, to be taken off.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleBefore = snapshot(groups);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idle = perOperation(idleBefore, snapshot(groups), IDLE_SECONDS).total;
  const net = (r) => r.total - (idle * r.seconds) / r.result.total;
  const [hook, plain] = rows;
  const summary = !plain
    ? `With nothing sent the stack used ${idle.toFixed(1)} ms of CPU per second.`
    : `With nothing sent the stack used ${idle.toFixed(1)} ms of CPU per second (measured over ${IDLE_SECONDS} s after the rows), ` +
      `${((idle * hook.seconds) / hook.result.total).toFixed(2)} ms per request of the webhook row and ` +
      `${((idle * plain.seconds) / plain.result.total).toFixed(2)} ms of the plain row; without it the webhook request costs ` +
      `${net(hook).toFixed(2)} ms and the plain send ${net(plain).toFixed(2)} ms (${(net(hook) / net(plain)).toFixed(2)} ×, ` +
      `${(net(hook) - net(plain)).toFixed(2)} ms more).`;
  console.log(table.join('\n'));
  console.log(summary);
  const loadAverage = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  if (!ONLY && !process.env.BENCH_PROFILE)
    record(`## Issue 41: CPU per GitHub push webhook beside a plain send${LABEL ? ` — ${LABEL}` : ''} (bench/webhook-github-push.mjs, ${new Date().toISOString().slice(0, 10)})

${machine()}. A stack of its own on private PostgreSQL, Redis and RabbitMQ; ${REQUESTS} requests per row after ${WARM_UP}
of warm-up, ${CONNECTIONS} connections, through the gateway, both rows as one incoming webhook bot of hamlet's to Verona
(${subscribers} subscribers). The webhook row posts the script's own GitHub push of ${COMMITS} commits (${sizes.payload} bytes of
JSON, X-GitHub-Event: push) to \`/api/v1/external/github\`; the plain row posts the Markdown that push produced
(${sizes.markdown} characters, rendered ${sizes.html} characters; the plain send's rendering: ${plainRendered}) with POST /messages to
the same topic. Load average at the end: ${loadAverage} (a shared machine).
CPU ms per request, per process (user + system time from /proc):

${table.join('\n')}

${summary}`);
} finally {
  await stack.stop({ cleanUp: true });
  await destroyServers();
}
