// Shared pieces of the benchmark scripts: a private stack, autocannon runs, and writing RESULTS.md.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import devkit from '@confab/devkit';

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
    logDir: join(BENCH_DIR, 'out', runId),
    env: {
      CONFAB_DEV_ENDPOINTS: '1',
      CONFAB_PASSWORD_HASH_COST: '10',
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

/** Runs autocannon and returns requests/s and latency percentiles (ms). */
export function load({ url, headers = {}, method = 'GET', body, requests, connections, duration, amount, title }) {
  return new Promise((resolve, reject) => {
    const given = { url, headers, method, body, requests, connections, duration, amount, title };
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
  const file = join(BENCH_DIR, 'RESULTS.md');
  if (!existsSync(file))
    writeFileSync(file, '# Benchmark results\n\nEach section is written by the script it names; newest last.\n');
  appendFileSync(file, `\n${section.trim()}\n`);
}
