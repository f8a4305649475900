#!/usr/bin/env node
// Clustered and pooled infrastructure on this machine, for running Confab against it locally (README, "Operations"):
//   node scripts/ops-infra.mjs rabbit-cluster   three RabbitMQ nodes and a balancer in front (prints AMQP_URL)
//   node scripts/ops-infra.mjs pgbouncer        PgBouncer in transaction mode before the local PostgreSQL
// Runs until Ctrl-C, then stops what it started and removes its data. Needs a build (npm run build).
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const devkit = createRequire(import.meta.url)(join(ROOT, 'libs', 'devkit', 'dist', 'index.js'));

const starters = {
  async 'rabbit-cluster'() {
    const cluster = await devkit.startRabbitCluster();
    console.log(`nodes: ${cluster.nodes.map((n) => `${n.name} (${n.url})`).join(', ')}`);
    console.log(`AMQP_URL=${cluster.url} CONFAB_EVENTS_QUEUE_TYPE=quorum`);
    return () => cluster.destroy();
  },
  async pgbouncer() {
    const bouncer = await devkit.startPgBouncer({ upstream: process.env.DATABASE_URL ?? devkit.localPostgresUrl() });
    for (const spec of devkit.databaseServices())
      console.log(`${spec.databaseEnv}=${bouncer.urlFor(devkit.stackDatabaseName('', spec.service))}`);
    return () => bouncer.stop();
  },
};

const what = process.argv[2];
if (!starters[what]) {
  console.error(`usage: node scripts/ops-infra.mjs ${Object.keys(starters).join('|')}`);
  process.exit(2);
}
const stop = await starters[what]();
console.log('running; Ctrl-C stops it');
const shutdown = async () => {
  await stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
setInterval(() => undefined, 1 << 30);
