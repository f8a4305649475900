// The floor under the gateway's CPU per request: what a forwarding hop costs on this machine before any of the
// gateway's own work (authentication, rate limit, identity token, metrics). Three proxies, each a process of its own
// in front of the same upstream (a bare node:http server answering a send-sized JSON body), are driven by the same
// autocannon load (POST with a send-sized form body, keep-alive), and their CPU from /proc is divided by requests:
//   - "node:http pipe": http.createServer + http.request with a keep-alive agent, bodies piped both ways;
//   - "http-proxy-middleware": the gateway's proxy library (same version, same options it uses) in a bare server;
//   - "http-proxy-middleware + express": the same behind express, as the gateway was before its hot path left it;
//   - "the gateway": Confab's gateway itself (gateway/dist/main.js) on Redis and RabbitMQ servers of its own, the
//     stub also answering its key check, so the row adds authentication, the rate limit and the identity token.
// The gateway's own figure is cpu-per-op.mjs's "gateway" column.
// Usage: node proxy-floor.mjs [requests] [connections] [requests per second offered, 0 for as fast as possible]
import { fork, spawn } from 'node:child_process';
import { createServer, request, Agent } from 'node:http';
import { randomBytes } from 'node:crypto';
import devkit from '@confab/devkit';
import { createRequire } from 'node:module';
import { cpuSeconds } from './cpu.mjs';
import { load, machine, record } from './lib.mjs';

const ROLE = process.argv[2];
const BODY = JSON.stringify({ result: 'success', msg: '', id: 123456, automatic_new_visibility_policy: null });

/** Listens on an ephemeral port of 127.0.0.1 and tells the parent which. */
function listen(server) {
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

if (ROLE === 'upstream') {
  // Also the settings service's key check, for the real gateway: every key is hamlet's.
  const IDENTITY = JSON.stringify({
    result: 'success',
    msg: '',
    identity: { kind: 'user', userId: 10, realmId: 1, role: 400, email: 'hamlet@zulip.com', isBot: false },
  });
  listen(
    createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const body = req.url === '/internal/authenticate' ? IDENTITY : BODY;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    }),
  );
} else if (ROLE === 'bare') {
  const target = Number(process.argv[3]);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256, timeout: 30_000 });
  listen(
    createServer((req, res) => {
      const upstream = request(
        { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }),
  );
} else if (ROLE === 'hpm' || ROLE === 'hpm-express') {
  const target = Number(process.argv[3]);
  const gatewayRequire = createRequire(new URL('../gateway/package.json', import.meta.url));
  const { createProxyMiddleware } = gatewayRequire('http-proxy-middleware');
  const proxy = createProxyMiddleware({
    target: `http://127.0.0.1:${target}`,
    changeOrigin: false,
    xfwd: true,
    ejectPlugins: true,
    agent: new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256, timeout: 30_000 }),
  });
  if (ROLE === 'hpm') {
    listen(createServer((req, res) => proxy(req, res, () => res.writeHead(502).end())));
  } else {
    const express = gatewayRequire('express');
    const app = express();
    app.use(proxy);
    listen(createServer(app));
  }
} else {
  const REQUESTS = Number(process.argv[2] ?? 12000);
  const CONNECTIONS = Number(process.argv[3] ?? 16);
  /** Requests per second offered (0: as fast as they answer). The default is the rate of channel sends through the
   * whole stack on this machine: a proxy woken for each request pays more per request than one fed in bursts. */
  const RATE = Number(process.argv[4] ?? 600);
  const here = new URL(import.meta.url).pathname;
  const start = (...args) =>
    new Promise((resolve, reject) => {
      const child = fork(here, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.once('message', ({ port }) => resolve({ child, port }));
      child.once('error', reject);
    });
  const upstream = await start('upstream');
  const form = 'type=stream&to=12&topic=bench&content=hello%20from%20the%20bench';
  const run = (port, amount) =>
    load({
      url: `http://127.0.0.1:${port}/api/v1/messages`,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('hamlet@zulip.com:0123456789abcdef0123456789abcdef').toString('base64')}`,
      },
      body: form,
      connections: CONNECTIONS,
      amount,
      ...(RATE > 0 ? { overallRate: RATE } : {}),
    });
  /** Confab's gateway in front of the stub, on a free port; resolves once it answers its health check. */
  const startGateway = async (redisUrl, amqpUrl) => {
    const free = await new Promise((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    const stub = `http://127.0.0.1:${upstream.port}`;
    const child = spawn(process.execPath, [new URL('../gateway/dist/main.js', import.meta.url).pathname], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        CONFAB_PORT: String(free),
        CONFAB_INTERNAL_SECRET: randomBytes(32).toString('hex'),
        SETTINGS_URL: stub,
        MESSAGING_URL: stub,
        REDIS_URL: redisUrl,
        CONFAB_REDIS_PREFIX: `floor${randomBytes(3).toString('hex')}`,
        AMQP_URL: amqpUrl,
        CONFAB_EVENTS_EXCHANGE: `floor${randomBytes(3).toString('hex')}`,
        CONFAB_RATE_LIMIT_PER_MINUTE: '1000000000',
        CONFAB_RATE_LIMIT_IP_PER_MINUTE: '1000000000',
      },
    });
    for (let i = 0; ; i++) {
      const up = await fetch(`http://127.0.0.1:${free}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return { child, port: free };
      if (i > 100 || child.exitCode !== null) throw new Error('the gateway did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  process.env.CONFAB_TEST_INFRA = process.env.CONFAB_TEST_INFRA ?? 'local';
  const [redis, rabbitmq] = await Promise.all([devkit.privateRedis(), devkit.privateRabbitMQ()]);
  const rows = [];
  try {
    for (const [name, role] of [
      ['node:http pipe', 'bare'],
      ['http-proxy-middleware', 'hpm'],
      ['http-proxy-middleware + express', 'hpm-express'],
      ['the gateway (authentication, rate limit, identity token)', 'gateway'],
    ]) {
      const proxy =
        role === 'gateway' ? await startGateway(redis.url, rabbitmq.url) : await start(role, String(upstream.port));
      try {
        await run(proxy.port, Math.ceil(REQUESTS / 5));
        const before = cpuSeconds(proxy.child.pid);
        const result = await run(proxy.port, REQUESTS);
        const ms = ((cpuSeconds(proxy.child.pid) - before) * 1000) / result.total;
        rows.push({ name, ms, result });
        console.log(`[bench] ${name}: ${ms.toFixed(3)} ms CPU/request, ${result.requestsPerSecond.toFixed(0)}/s`);
      } finally {
        proxy.child.kill();
      }
    }
  } finally {
    upstream.child.kill();
    await Promise.all([redis.destroy(), rabbitmq.destroy()]);
  }
  const section = `## The floor under a forwarding hop (bench/proxy-floor.mjs, ${new Date().toISOString().slice(0, 10)})

${machine()}. Each proxy a process of its own in front of the same bare upstream, ${REQUESTS} POSTs (a send-sized form
body and answer) after ${Math.ceil(REQUESTS / 5)} of warm-up, ${CONNECTIONS} keep-alive connections, ${RATE > 0 ? `${RATE} requests/s offered` : 'as fast as they answer'};
the proxy's CPU (user + system, /proc) per request. The first three neither authenticate, count a rate limit nor sign a token; the gateway does all three
(one Redis round trip per request, its key cache warm) before the same proxy library forwards the request.

| proxy | CPU ms per request | requests/s | p50 ms | p99 ms | errors |
|---|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.name} | ${r.ms.toFixed(3)} | ${r.result.requestsPerSecond.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${r.result.errors + r.result.non2xx} |`).join('\n')}
`;
  console.log(section);
  if (process.env.BENCH_RECORD !== '0') record(section);
}
