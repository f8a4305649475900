// One client, one request at a time: the latency a person sees when sending to a channel and reading it back,
// through the gateway, on a quiet stack (no other load). Usage: node bench/single-client.mjs [requests]
import { Agent, request } from 'node:http';
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
  // Two clients: fetch (undici, as a JavaScript app would call) and node:http on a keep-alive agent, whose own cost
  // is far lower, so the second is closer to what the server itself takes.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const viaHttp = (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = request(
        `${info.gatewayUrl}${path}`,
        { method, agent, headers: body ? { ...headers, ...form, 'content-length': Buffer.byteLength(body) } : headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, text: async () => '' }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const operations = {
    'channel send (POST /messages)': {
      fetch: () =>
        fetch(`${info.gatewayUrl}/api/v1/messages`, { method: 'POST', headers: { ...headers, ...form }, body: send }),
      http: () => viaHttp('POST', '/api/v1/messages', send.toString()),
    },
    'history read, 20 messages (GET /messages)': {
      fetch: () => fetch(`${info.gatewayUrl}/api/v1/messages?${read}`, { headers }),
      http: () => viaHttp('GET', `/api/v1/messages?${read}`),
    },
    'GET /users/me': {
      fetch: () => fetch(`${info.gatewayUrl}/api/v1/users/me`, { headers }),
      http: () => viaHttp('GET', '/api/v1/users/me'),
    },
  };
  const rows = [];
  for (const [label, clients] of Object.entries(operations)) {
    for (const [client, call] of Object.entries(clients)) {
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
      rows.push(`| ${label} | ${client} | ${requests} | ${at(0.5)} | ${at(0.9)} | ${at(0.99)} |`);
    }
  }
  agent.destroy();
  const section = `## Single client: latency of one request at a time through the gateway — ${new Date().toISOString().slice(0, 10)}

${machine()}. One client sends each request when the previous one answered (keep-alive), ${requests} requests
per row after 50 of warm-up, on a stack of its own with no other load. Script: \`bench/single-client.mjs\`.

| operation | client | requests | p50 ms | p90 ms | p99 ms |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0') record(section);
} finally {
  await stack.stop({ cleanUp: true });
}
