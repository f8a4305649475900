#!/usr/bin/env node
// Lists every operation of Zulip's API description (gateway/openapi/zulip-openapi.yaml, or --spec <file>) against
// the routes Confab serves, and prints how many are served. Served means: a service lists the route (GET
// /internal/routes, as the gateway's /api/openapi.json shows them) and the gateway routes its path to that service.
//
//   node scripts/api-coverage.mjs                       starts a deployment of its own (local PostgreSQL, Redis and
//                                                       RabbitMQ, random ports), reads its routes, stops it
//   node scripts/api-coverage.mjs --gateway URL         reads a running gateway's /api/openapi.json instead
//   --missing-only                                      prints only the operations not served
//
// Exit status 0 either way: the count is the answer (docs/api-coverage.md says which operations differ and why).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'gateway', 'package.json'));
const { parse } = require('yaml');
const { resolveRoute } = require(join(ROOT, 'gateway', 'dist', 'routing.js'));

/** Operations Zulip's description has for documentation only: they are no endpoints of a Zulip server. */
const DOCUMENTATION_ONLY = new Set(['POST /real-time', 'POST /rest-error-handling', 'POST /zulip-outgoing-webhook']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function argument(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** `/users/{user_id}/status` → `/users/{}/status`: parameter names differ between descriptions. */
const shape = (path) => path.replace(/\{[^}]+\}/g, '{}');

function zulipOperations(file) {
  const doc = parse(readFileSync(file, 'utf8'));
  const out = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS) if (item[method]) out.push({ method: method.toUpperCase(), path });
  return out;
}

/** Confab's operations: method and path shape → the service that lists it. */
function confabOperations(openapi) {
  const out = new Map();
  for (const [path, item] of Object.entries(openapi.paths ?? {}))
    for (const method of METHODS)
      if (item[method])
        out.set(`${method.toUpperCase()} ${shape(path)}`, { path, service: item[method]['x-confab-service'] });
  return out;
}

/** A concrete path for a template, to ask the gateway's routing table who owns it. */
const concrete = (path) => `/api/v1${path.replace(/\{[^}]+\}/g, '12')}`;

async function readGateway(url) {
  const response = await fetch(`${url.replace(/\/+$/, '')}/api/openapi.json`);
  if (!response.ok) throw new Error(`${url}/api/openapi.json answered ${response.status}`);
  return response.json();
}

async function withOwnDeployment(read) {
  const devkit = require(join(ROOT, 'libs', 'devkit', 'dist', 'index.js'));
  const log = (line) => process.stderr.write(`[coverage] ${line}\n`);
  const infra = await devkit.resolveInfrastructure(log);
  const runId = `cov${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const stack = new devkit.Stack({
    infra,
    runId,
    ports: 'random',
    logDir: join(tmpdir(), 'confab-coverage', runId),
    env: { LOG_LEVEL: 'warn' },
    readyTimeoutMs: 300_000,
  });
  try {
    log('starting a deployment of its own');
    const info = await stack.start();
    return await read(info.gatewayUrl);
  } finally {
    await stack.stop({ cleanUp: true });
    await infra.stop();
  }
}

const spec = argument('--spec') ?? join(ROOT, 'gateway', 'openapi', 'zulip-openapi.yaml');
const gateway = argument('--gateway');
const openapi = gateway ? await readGateway(gateway) : await withOwnDeployment(readGateway);
const served = confabOperations(openapi);
const operations = zulipOperations(spec);
let real = 0;
const missing = [];
const misrouted = [];
for (const op of operations) {
  const key = `${op.method} ${op.path}`;
  if (DOCUMENTATION_ONLY.has(key)) continue;
  real += 1;
  const found = served.get(`${op.method} ${shape(op.path)}`);
  if (!found) missing.push(key);
  else if (resolveRoute(concrete(found.path))?.service !== found.service) misrouted.push(`${key} (${found.service})`);
}
const count = real - missing.length - misrouted.length;
if (!process.argv.includes('--missing-only')) {
  console.log(
    `Zulip's description: ${operations.length} operations, ${DOCUMENTATION_ONLY.size} of them documentation only`,
  );
  console.log(`served by Confab: ${count} of ${real}`);
}
for (const key of missing) console.log(`not served: ${key}`);
for (const key of misrouted) console.log(`listed but not routed by the gateway: ${key}`);
