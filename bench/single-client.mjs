// One client, one request at a time: the latency a person sees when sending to a channel and reading it back,
// through the gateway, on a quiet stack (no other load). Usage: node bench/single-client.mjs [requests]
import { performance } from 'node:perf_hooks';
import devkit from '@confab/devkit';
import { machine, record, startBenchStack } from './lib.mjs';

const requests = Number(process.argv[2] ?? 300);

const { stack, info } = await startBenchStack();
try {
  const world = await devkit.createWorld(info);
  const hamlet = world.user('hamlet');
  const headers = {
    authorization: `Basic ${Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString('base64')}`,
    host: world.host,
  };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const send = new URLSearchParams({
    type: 'stream',
    to: 'Verona',
    topic: 'one',
    content: 'hello',
    read_by_sender: 'true',
  });
  const read = new URLSearchParams({
    anchor: 'newest',
    num_before: '20',
    num_after: '0',
    narrow: JSON.stringify([{ operator: 'channel', operand: 'Verona' }]),
  });
  const operations = {
    'channel send (POST /messages)': () =>
      fetch(`${info.gatewayUrl}/api/v1/messages`, { method: 'POST', headers: { ...headers, ...form }, body: send }),
    'history read, 20 messages (GET /messages)': () => fetch(`${info.gatewayUrl}/api/v1/messages?${read}`, { headers }),
    'GET /users/me': () => fetch(`${info.gatewayUrl}/api/v1/users/me`, { headers }),
  };
  const rows = [];
  for (const [label, call] of Object.entries(operations)) {
    const times = [];
    for (let i = 0; i < requests + 50; i++) {
      const started = performance.now();
      const response = await call();
      await response.text();
      if (response.status !== 200) throw new Error(`${label}: ${response.status}`);
      if (i >= 50) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))].toFixed(1);
    rows.push(`| ${label} | ${requests} | ${at(0.5)} | ${at(0.9)} | ${at(0.99)} |`);
  }
  const section = `## Single client: latency of one request at a time through the gateway — ${new Date().toISOString().slice(0, 10)}

${machine()}. One client sends each request when the previous one answered (keep-alive), ${requests} requests
per row after 50 of warm-up, on a stack of its own with no other load. Script: \`bench/single-client.mjs\`.

| operation | requests | p50 ms | p90 ms | p99 ms |
|---|---|---|---|---|
${rows.join('\n')}
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0') record(section);
} finally {
  await stack.stop({ cleanUp: true });
}
