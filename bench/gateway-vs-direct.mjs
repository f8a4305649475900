// Authenticated GET /users/me through the gateway versus straight to the settings service (with a valid identity
// token), same connections and duration, in one run. Usage: pnpm --filter @confab/bench gateway [connections] [seconds]
import devkit from '@confab/devkit';
import { signIdentity } from '@confab/identity';
import { load, machine, record, startBenchStack } from './lib.mjs';

const connections = Number(process.argv[2] ?? 32);
const duration = Number(process.argv[3] ?? 15);

const { stack, info } = await startBenchStack();
try {
  const world = await devkit.createWorld(info);
  const iago = world.user('iago');
  const basic = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  const token = signIdentity(
    { kind: 'user', userId: iago.id, realmId: world.realm.realm_id, role: 200, email: iago.email, isBot: false },
    info.internalSecret,
    3600,
  );
  const gateway = { url: `${info.gatewayUrl}/api/v1/users/me`, headers: { authorization: basic, host: world.host } };
  const direct = { url: `${info.serviceUrls.settings}/api/v1/users/me`, headers: { 'x-confab-identity': token } };

  // Warm up both paths (JIT, connection pools, the gateway's credential cache).
  await load({ ...direct, connections, duration: 3, title: 'warm-up direct' });
  await load({ ...gateway, connections, duration: 3, title: 'warm-up gateway' });
  const d = await load({ ...direct, connections, duration, title: 'direct' });
  const g = await load({ ...gateway, connections, duration, title: 'gateway' });
  const ratio = g.requestsPerSecond / d.requestsPerSecond;
  const row = (name, r) =>
    `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`;
  const section = `
## Gateway versus direct: authenticated GET /users/me — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}. ${connections} connections, ${duration} s each, after 3 s warm-ups; autocannon, the stack and
PostgreSQL/Redis/RabbitMQ share the machine. Script: \`bench/gateway-vs-direct.mjs\`.

| path | requests/s | p50 ms | p99 ms | errors |
|---|---|---|---|---|
${row('direct to settings (identity token)', d)}
${row('through the gateway (Basic auth)', g)}

Gateway keeps **${(ratio * 100).toFixed(0)}%** of the direct path's throughput (target ≥ 60%).
`;
  console.log(section);
  if (g.non2xx + g.errors + d.non2xx + d.errors > 0) console.log('WARNING: errors during the run');
  if (process.env.BENCH_RECORD !== '0') record(section);
} finally {
  await stack.stop({ cleanUp: true });
}
