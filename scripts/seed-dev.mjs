#!/usr/bin/env node
// Creates the development organization in a deployment started without the devkit (docker compose), as `npm start`
// does, unless the server already has its default organization. Addresses come from the environment:
// CONFAB_GATEWAY_URL and the services' *_URL variables (SETTINGS_URL, MESSAGING_URL, ...), CONFAB_INTERNAL_SECRET
// (or CONFAB_INTERNAL_SECRET_FILE, as compose sets),
// CONFAB_DEV_PASSWORD, CONFAB_JWT_KEY.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const devkit = require('../libs/devkit/dist/index.js');
const log = (line) => console.log(`[seed] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The StackInfo createWorld needs, for the services of this build whose URL variable is set. */
function stackInfoFromEnv(env = process.env) {
  const gatewayUrl = (env.CONFAB_GATEWAY_URL ?? 'http://127.0.0.1:9991').replace(/\/+$/, '');
  const serviceUrls = { gateway: gatewayUrl };
  for (const spec of devkit.processes()) {
    if (spec.urlEnv && env[spec.urlEnv]) serviceUrls[spec.service] = env[spec.urlEnv].replace(/\/+$/, '');
  }
  if (!serviceUrls.settings) throw new Error('SETTINGS_URL is not set');
  return {
    runId: '',
    gatewayUrl,
    serviceUrls,
    internalSecret:
      env.CONFAB_INTERNAL_SECRET ||
      (env.CONFAB_INTERNAL_SECRET_FILE ? readFileSync(env.CONFAB_INTERNAL_SECRET_FILE, 'utf8').trim() : undefined) ||
      devkit.DEV_INTERNAL_SECRET,
    redisUrl: env.REDIS_URL ?? devkit.LOCAL_DEFAULTS.redisUrl,
    redisPrefix: env.CONFAB_REDIS_PREFIX ?? 'confab',
    amqpUrl: env.AMQP_URL ?? devkit.LOCAL_DEFAULTS.amqpUrl,
    exchange: env.CONFAB_EVENTS_EXCHANGE ?? 'confab.events',
    postgresUrl: '',
    databases: {},
    logDir: '',
  };
}

/** Waits until every service answers /readyz, so the new organization's events reach all of them. */
async function waitReady(info, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (const [service, url] of Object.entries(info.serviceUrls)) {
    for (;;) {
      const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${service} (${url}) is not ready`);
      await sleep(1000);
    }
  }
}

async function main() {
  const info = stackInfoFromEnv();
  log(`services: ${Object.keys(info.serviceUrls).join(', ')}`);
  // Seconds to wait for every service to be ready. Default 180.
  await waitReady(info, Number(process.env.CONFAB_SEED_WAIT_SECONDS ?? 180) * 1000);
  const existing = await new devkit.ApiClient(info.gatewayUrl).get('/server_settings');
  if (existing.status !== 200) throw new Error(`GET /server_settings answered ${existing.status}: ${existing.text}`);
  if (existing.body.realm_name !== undefined) {
    log(`the development organization exists ('${existing.body.realm_name}'); nothing to do`);
    return;
  }
  const password = process.env.CONFAB_DEV_PASSWORD ?? devkit.DEV_PASSWORD;
  const jwtKey = process.env.CONFAB_JWT_KEY ?? devkit.DEV_JWT_KEY;
  log('creating the development organization');
  await devkit.createWorld(info, { subdomain: '', password, jwtKey, name: 'Zulip Dev' });
  log(`done: log in as iago@zulip.com (or desdemona, shiva, hamlet, ... @zulip.com) with the password "${password}"`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`[seed] ${err.message}`);
    process.exit(1);
  },
);
