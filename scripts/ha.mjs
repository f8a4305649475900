#!/usr/bin/env node
// Confab on three hosts, on this one machine: each host a network namespace of its own (`ip netns`), joined by veth
// pairs to a bridge in a fourth namespace (the switch), with addresses that exist only inside those namespaces (no
// route out). On every host: an etcd member and a PostgreSQL of one Patroni cluster (synchronous replication,
// automatic failover, WAL archived by pgBackRest into a repository the hosts share), a node of one RabbitMQ cluster
// (quorum queues), a Redis with a Sentinel (automatic failover), an HAProxy (the way to the PostgreSQL primary and
// to every host's replicas of every service), and one of every Confab process. In front, an HAProxy on 127.0.0.1
// hands each request to a host's gateway, as a cloud balancer would. Root, Debian packages: patroni, etcd-server,
// haproxy, pgbackrest, redis-sentinel, rabbitmq-server, postgresql (infra/ha/README.md).
//   node scripts/ha.mjs up [--e2e] | down | status | kill <host> | revive <host> | partition <host> | heal <host> | e2e-state
//   (npm run ha -- …; hosts are ha1, ha2, ha3)
// `down` removes everything a run made, including what a run that crashed left behind; `up` starts with it.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => console.log(`[ha] ${line}`);

/** Everything the topology makes is named from here, so `down` finds it whatever state a run left. */
export const HA = {
  dir: process.env.CONFAB_HA_DIR ?? '/tmp/confab-ha',
  netns: 'cfha-net',
  bridge: 'cfhabr0',
  subnet: '10.246.46',
  port: Number(process.env.CONFAB_HA_PORT ?? 9946),
  hosts: [1, 2, 3].map((i) => ({
    name: `ha${i}`,
    index: i,
    ns: `cfha-${i}`,
    ip: `10.246.46.1${i}`,
    veth: `cfha-h${i}`,
  })),
};
const SWITCH_IP = `${HA.subnet}.1`;
const PG_BIN = (() => {
  const versions = spawnSync('bash', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1'], {
    encoding: 'utf8',
  });
  return versions.stdout.trim();
})();
const STANZA = 'confab';

/** Ports each host uses (on its own address) and the local HAProxy's. */
const PORTS = {
  etcdClient: 2379,
  etcdPeer: 2380,
  pg: 5432,
  patroni: 8008,
  pgFront: 5000,
  redis: 6379,
  sentinel: 26379,
};
PORTS.amqp = 5672;
PORTS.rabbitDist = 25672;
/** The local HAProxy's port for a service: its own port plus 10000. */
const frontPort = (port) => port + 10000;

export function host(name) {
  const h = HA.hosts.find((x) => x.name === name || String(x.index) === String(name));
  if (!h) throw new Error(`no host ${name}: the hosts are ${HA.hosts.map((x) => x.name).join(', ')}`);
  return h;
}

const hostDir = (h) => join(HA.dir, h.name);
const stateFile = join(HA.dir, 'state.json');

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (r.status !== 0 && !options.allowFail)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r;
}
const ip = (...args) => sh('ip', args);
const inNs = (ns, cmd, args, options) => sh('ip', ['netns', 'exec', ns, cmd, ...args], options);

/** A detached process inside a namespace, its output in `logFile`; the pid is the process's own (ip netns exec execs). */
function startIn(ns, cmd, args, { env = {}, logFile, user } = {}) {
  const out = logFile ? openLog(logFile) : 'ignore';
  const argv = user
    ? ['netns', 'exec', ns, 'runuser', '-u', user, '--', cmd, ...args]
    : ['netns', 'exec', ns, cmd, ...args];
  const child = spawn('ip', argv, { env: { ...process.env, ...env }, stdio: ['ignore', out, out], detached: true });
  child.unref();
  return child.pid;
}

function openLog(file) {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, '');
  return require('node:fs').openSync(file, 'a');
}

function readState() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return undefined;
  }
}
function writeState(state) {
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

// ---------------------------------------------------------------------------------------------------------------
// The network

function namespaces() {
  const r = sh('ip', ['netns', 'list'], { allowFail: true });
  return r.stdout
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
}

function makeNetwork() {
  ip('netns', 'add', HA.netns);
  ip('-n', HA.netns, 'link', 'set', 'lo', 'up');
  ip('-n', HA.netns, 'link', 'add', HA.bridge, 'type', 'bridge');
  ip('-n', HA.netns, 'addr', 'add', `${SWITCH_IP}/24`, 'dev', HA.bridge);
  ip('-n', HA.netns, 'link', 'set', HA.bridge, 'up');
  for (const h of HA.hosts) {
    ip('netns', 'add', h.ns);
    ip('-n', h.ns, 'link', 'set', 'lo', 'up');
    // The pair is made inside the switch's namespace, so no end ever exists in the machine's own.
    ip('-n', HA.netns, 'link', 'add', h.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.ns);
    ip('-n', HA.netns, 'link', 'set', h.veth, 'master', HA.bridge);
    ip('-n', HA.netns, 'link', 'set', h.veth, 'up');
    ip('-n', h.ns, 'addr', 'add', `${h.ip}/24`, 'dev', 'eth0');
    ip('-n', h.ns, 'link', 'set', 'eth0', 'up');
    // Host names for the processes of the namespace (ip netns exec mounts /etc/netns/<ns>/hosts on /etc/hosts).
    mkdirSync(`/etc/netns/${h.ns}`, { recursive: true });
    writeFileSync(
      `/etc/netns/${h.ns}/hosts`,
      // The machine's own name too: rabbitmqctl's node is named after it, and the node it asks answers it there.
      `127.0.0.1 localhost ${hostname()}\n${HA.hosts.map((x) => `${x.ip} ${x.name}`).join('\n')}\n`,
    );
  }
}

/** Removes every process in the namespaces, the namespaces (and so their links), the host files and the data. */
export function down({ keepData = false } = {}) {
  const state = readState();
  if (state?.frontPid) killPid(state.frontPid);
  const ours = [HA.netns, ...HA.hosts.map((h) => h.ns)];
  for (const ns of ours.filter((n) => namespaces().includes(n))) {
    killNamespace(ns);
    sh('ip', ['netns', 'del', ns], { allowFail: true });
  }
  for (const h of HA.hosts) rmSync(`/etc/netns/${h.ns}`, { recursive: true, force: true });
  // The front balancer lives in the machine's namespace: it is found by its pid file too.
  const frontPidFile = join(HA.dir, 'front.pid');
  if (existsSync(frontPidFile)) killPid(Number(readFileSync(frontPidFile, 'utf8')));
  if (!keepData) rmSync(HA.dir, { recursive: true, force: true });
}

function killPid(pid) {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** SIGKILLs every process of a namespace, until none is left (daemons that fork are found on the next round). */
function killNamespace(ns) {
  for (let round = 0; round < 20; round++) {
    const pids = sh('ip', ['netns', 'pids', ns], { allowFail: true })
      .stdout.split('\n')
      .map(Number)
      .filter((p) => p > 0);
    if (pids.length === 0) return;
    for (const pid of pids) killPid(pid);
    spawnSync('sleep', ['0.2']);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Configuration files

function owned(path, user) {
  const uid = Number(sh('id', ['-u', user]).stdout.trim());
  const gid = Number(sh('id', ['-g', user]).stdout.trim());
  chownSync(path, uid, gid);
}

function etcdArgs(h) {
  const d = hostDir(h);
  return [
    '--name',
    h.name,
    '--data-dir',
    join(d, 'etcd'),
    '--listen-client-urls',
    `http://${h.ip}:${PORTS.etcdClient}`,
    '--advertise-client-urls',
    `http://${h.ip}:${PORTS.etcdClient}`,
    '--listen-peer-urls',
    `http://${h.ip}:${PORTS.etcdPeer}`,
    '--initial-advertise-peer-urls',
    `http://${h.ip}:${PORTS.etcdPeer}`,
    '--initial-cluster',
    HA.hosts.map((x) => `${x.name}=http://${x.ip}:${PORTS.etcdPeer}`).join(','),
    '--initial-cluster-state',
    'new',
    '--initial-cluster-token',
    'confab-ha',
    '--heartbeat-interval',
    '200',
    '--election-timeout',
    '2000',
  ];
}

function pgbackrestConf() {
  const repo = join(HA.dir, 'pgbackrest');
  return `[global]
repo1-path=${repo}
repo1-retention-full=2
log-path=${join(HA.dir, 'pgbackrest-log')}
lock-path=${join(HA.dir, 'pgbackrest-lock')}
spool-path=${join(HA.dir, 'pgbackrest-spool')}
start-fast=y
archive-async=n

[${STANZA}]
pg1-path=${join(hostDir(HA.hosts[0]), 'pg')}
`;
}

function patroniYaml(h) {
  const d = hostDir(h);
  const conf = join(HA.dir, 'pgbackrest.conf');
  return `scope: confab
name: ${h.name}
restapi:
  listen: ${h.ip}:${PORTS.patroni}
  connect_address: ${h.ip}:${PORTS.patroni}
etcd3:
  hosts: ${HA.hosts.map((x) => `${x.ip}:${PORTS.etcdClient}`).join(',')}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 600
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
        archive_mode: "on"
        archive_timeout: 30
        shared_buffers: 64MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host all all ${HA.subnet}.0/24 trust
    - host replication replicator ${HA.subnet}.0/24 trust
    - host replication replicator 127.0.0.1/32 trust
postgresql:
  listen: ${h.ip},127.0.0.1:${PORTS.pg}
  connect_address: ${h.ip}:${PORTS.pg}
  data_dir: ${join(d, 'pg')}
  bin_dir: ${PG_BIN}
  pgpass: ${join(d, 'pgpass')}
  authentication:
    # Trust authentication on the subnet (pg_hba above); initdb still wants a password for the superuser.
    superuser:
      username: postgres
      password: confab-ha
    replication:
      username: replicator
      password: confab-ha
    rewind:
      username: postgres
      password: confab-ha
  parameters:
    unix_socket_directories: ${d}
    archive_command: "pgbackrest --config=${conf} --stanza=${STANZA} --pg1-path=${join(d, 'pg')} archive-push %p"
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
`;
}

function redisConf(h, masterIp) {
  return [
    `bind ${h.ip} 127.0.0.1`,
    `port ${PORTS.redis}`,
    'protected-mode no',
    'save ""',
    'appendonly no',
    `dir ${join(hostDir(h), 'redis')}`,
    // A master cut off from its replicas stops taking writes: what it took alone would be lost when it rejoins.
    'min-replicas-to-write 1',
    'min-replicas-max-lag 10',
    `replica-announce-ip ${h.ip}`,
    ...(masterIp && masterIp !== h.ip ? [`replicaof ${masterIp} ${PORTS.redis}`] : []),
  ].join('\n');
}

function sentinelConf(h, masterIp) {
  return [
    `bind ${h.ip} 127.0.0.1`,
    `port ${PORTS.sentinel}`,
    'protected-mode no',
    `dir ${join(hostDir(h), 'redis')}`,
    `sentinel announce-ip ${h.ip}`,
    `sentinel monitor confab ${masterIp} ${PORTS.redis} 2`,
    'sentinel down-after-milliseconds confab 3000',
    'sentinel failover-timeout confab 10000',
    'sentinel parallel-syncs confab 1',
  ].join('\n');
}

function rabbitConf(h) {
  return [
    `listeners.tcp.1 = ${h.ip}:${PORTS.amqp}`,
    'loopback_users = none',
    // A node cut off from the others stops serving (and closes its clients' connections), so that clients reconnect
    // to the majority; quorum queues need a majority anyway.
    'cluster_partition_handling = pause_minority',
    'cluster_formation.peer_discovery_backend = classic_config',
    ...HA.hosts.map((x, i) => `cluster_formation.classic_config.nodes.${i + 1} = rabbit@${x.name}`),
    'heartbeat = 5',
    'log.file.level = warning',
  ].join('\n');
}

function rabbitEnv(h, cookie) {
  const d = join(hostDir(h), 'rabbit');
  return {
    RABBITMQ_NODENAME: `rabbit@${h.name}`,
    RABBITMQ_NODE_IP_ADDRESS: h.ip,
    RABBITMQ_NODE_PORT: String(PORTS.amqp),
    RABBITMQ_DIST_PORT: String(PORTS.rabbitDist),
    RABBITMQ_CONFIG_FILE: join(d, 'rabbitmq.conf'),
    // Not the machine's rabbitmq-env.conf (which may bind epmd to 127.0.0.1): a node must be reachable at its host.
    RABBITMQ_CONF_ENV_FILE: join(d, 'rabbitmq-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(d, 'enabled_plugins'),
    RABBITMQ_MNESIA_BASE: join(d, 'mnesia'),
    RABBITMQ_LOG_BASE: join(d, 'log'),
    RABBITMQ_PID_FILE: join(d, 'rabbit.pid'),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: `-setcookie ${cookie}`,
    RABBITMQ_CTL_ERL_ARGS: `-setcookie ${cookie}`,
    HOME: d,
  };
}

/**
 * HAProxy's health checks of every server (the hosts' and the front's). A server is marked down, and its sessions
 * ended (`on-marked-down shutdown-sessions`, what ends a partitioned host's long polls within seconds), after three
 * failed checks in a row; after the first failure the checks come every 500 ms (`fastinter`). A check fails at once
 * when the connection is refused (a killed host: its kernel answers with a reset), after `timeout connect` (1 s) when
 * nothing answers (a partitioned host), and only after `timeout check` (5 s) when the server accepted the connection
 * but is slow to answer: a process alive on a machine loaded 50 (the e2e suite beside the hosts) is not marked down
 * for a slow /healthz, which cut requests in flight with the earlier 1 s limit and two failures. Worst case to mark a
 * dead host down: about 1 s + 2 × 0.5 s for a kill, 3 × 1 s + 2 × 0.5 s for a partition.
 */
const CHECK = 'inter 1s fastinter 500ms fall 3';
const CHECK_TIMEOUT = '5s';

/** The local HAProxy of a host: PostgreSQL's primary (Patroni's REST check), every service's replicas. */
function haproxyConf(h, services) {
  const servers = (port, check) => HA.hosts.map((x) => `    server ${x.name} ${x.ip}:${port} ${check}`).join('\n');
  const http = services
    .filter((s) => s.port)
    .map(
      (s) => `listen ${s.name}
    bind ${h.ip}:${frontPort(s.port)}
    mode http
    balance roundrobin
    option httpchk GET /healthz
    retries 2
    option redispatch
    timeout server 120s
${servers(s.port, `check ${CHECK} rise 1`)}`,
    )
    .join('\n\n');
  return `global
    maxconn 4000
    pidfile ${join(hostDir(h), 'haproxy.pid')}

defaults
    timeout connect 1s
    timeout check ${CHECK_TIMEOUT}
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    default-server on-marked-down shutdown-sessions

listen postgres
    bind ${h.ip}:${PORTS.pgFront}
    mode tcp
    option httpchk OPTIONS /primary
    http-check expect status 200
${servers(PORTS.pg, `check port ${PORTS.patroni} ${CHECK} rise 2`)}

listen events-channel
    bind ${h.ip}:${frontPort(9116)}
    mode tcp
    timeout server 1h
    timeout client 1h
${servers(9116, `check ${CHECK} rise 1`)}

${http}
`;
}

/** The front balancer, in the machine's namespace, reaching each host's gateway through the switch's. */
function frontConf() {
  return `global
    maxconn 4000

defaults
    mode http
    timeout connect 1s
    timeout check ${CHECK_TIMEOUT}
    timeout client 120s
    timeout server 120s
    default-server on-marked-down shutdown-sessions

listen gateway
    bind 127.0.0.1:${HA.port}
    # The same address in the switch's namespace, where the e2e suite runs: it reaches the hosts as a user does, and
    # the organizations' URLs (http://<subdomain>.localhost:${HA.port}) name it there too.
    bind 127.0.0.1:${HA.port} namespace ${HA.netns}
    balance roundrobin
    option httpchk GET /healthz
    retries 2
    option redispatch
${HA.hosts.map((x) => `    server ${x.name} ${x.ip}:9991 namespace ${HA.netns} check ${CHECK} rise 1`).join('\n')}
`;
}

// ---------------------------------------------------------------------------------------------------------------
// Probes (from the switch's namespace, which reaches every host)

async function probe(url, timeoutMs = 1500) {
  const r = await run('ip', [
    'netns',
    'exec',
    HA.netns,
    'curl',
    '-s',
    '-m',
    String(timeoutMs / 1000),
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    url,
  ]).catch((err) => ({ stdout: err.stdout ?? '000' }));
  return Number(r.stdout.trim() || 0);
}

async function probeText(url, timeoutMs = 1500) {
  const r = await run('ip', ['netns', 'exec', HA.netns, 'curl', '-s', '-m', String(timeoutMs / 1000), url]).catch(
    () => ({ stdout: '' }),
  );
  return r.stdout;
}

async function until(what, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** The host whose Patroni is the leader (the PostgreSQL primary), or undefined. */
export async function pgPrimary() {
  for (const h of HA.hosts) if ((await probe(`http://${h.ip}:${PORTS.patroni}/primary`)) === 200) return h;
  return undefined;
}

/** The current Redis master's address, as a live sentinel says. */
export function redisMaster() {
  for (const h of HA.hosts) {
    const r = inNs(
      HA.netns,
      'redis-cli',
      ['-h', h.ip, '-p', String(PORTS.sentinel), '--raw', 'SENTINEL', 'get-master-addr-by-name', 'confab'],
      {
        allowFail: true,
        timeout: 3000,
      },
    );
    const [addr] = (r.stdout ?? '').trim().split('\n');
    if (r.status === 0 && addr && /^\d/.test(addr)) return HA.hosts.find((x) => x.ip === addr);
  }
  return undefined;
}

function rabbitctl(h, cookie, args, options = {}) {
  return inNs(h.ns, 'rabbitmqctl', ['-n', `rabbit@${h.name}`, '--erlang-cookie', cookie, ...args], {
    env: { ...process.env, ...rabbitEnv(h, cookie) },
    timeout: 60_000,
    ...options,
  });
}

/** For each quorum queue of the events, the host of its leader (rabbitmqctl list_queues name leader). */
export function rabbitLeaders(state) {
  for (const h of HA.hosts) {
    const r = rabbitctl(h, state.cookie, ['list_queues', '-q', '--no-table-headers', 'name', 'type', 'leader'], {
      allowFail: true,
      timeout: 20_000,
    });
    if (r.status !== 0) continue;
    const leaders = {};
    for (const line of r.stdout.split('\n')) {
      const [name, type, leader] = line.trim().split(/\s+/);
      if (type === 'quorum' && leader) leaders[name] = leader.replace(/^rabbit@/, '');
    }
    return leaders;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------------------------
// Starting a host's parts

function confabProcesses() {
  const devkit = require('../libs/devkit/dist/catalog.js');
  return devkit.processes().map((spec) => ({
    name: spec.name,
    spec,
    port: spec.devPort,
  }));
}

function confabEnv(h, state, spec) {
  const services = confabProcesses();
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    CONFAB_INTERNAL_SECRET: state.secrets.internal,
    CONFAB_UPLOAD_URL_KEY: state.secrets.upload,
    CONFAB_MEETING_TOKEN_KEY: state.secrets.meeting,
    CONFAB_BIND_HOST: h.ip,
    // The suite reads the processes' metrics (`up --e2e`): on the host's address then, else the namespace's loopback.
    CONFAB_METRICS_HOST: state.e2e ? h.ip : '127.0.0.1',
    CONFAB_METRICS_PORT: String(spec.devMetricsPort),
    CONFAB_DEV_ENDPOINTS: '1',
    CONFAB_TRUST_PROXY: '1',
    // A name, not an address: organizations live on its subdomains (127.0.0.1 reaches the default one).
    CONFAB_EXTERNAL_URL: `http://localhost:${HA.port}`,
    CONFAB_DATA_DIR: join(HA.dir, 'data'),
    REDIS_URL: `redis+sentinel://${HA.hosts.map((x) => `${x.ip}:${PORTS.sentinel}`).join(',')}/confab`,
    CONFAB_REDIS_PREFIX: 'confab',
    // Every node, this host's first; heartbeats of 5 s find a node that went away.
    AMQP_URL: [h, ...HA.hosts.filter((x) => x !== h)]
      .map((x) => `amqp://guest:guest@${x.ip}:${PORTS.amqp}?heartbeat=5`)
      .join(','),
    CONFAB_EVENTS_QUEUE_TYPE: 'quorum',
    CONFAB_EVENTS_EXCHANGE: 'confab.events',
    CONFAB_RATE_LIMIT_PER_MINUTE: '1000000',
    CONFAB_EVENTS_CHANNEL_CONNECTIONS: '4',
    // Small pools: three hosts of every process share one PostgreSQL primary.
    SETTINGS_DB_POOL: '4',
    MESSAGING_DB_POOL: '12',
    GROUPS_DB_POOL: '3',
    INVITATIONS_DB_POOL: '2',
    PUSH_DB_POOL: '3',
    // `up --e2e` (npm run test:ha -- e2e): the settings the end-to-end suite's own deployment runs with
    // (tests/e2e/support/global-setup.ts, E2E_ENV), the tests' servers on the switch's address (where the suite runs).
    ...(state.e2e ? e2eSettings() : {}),
  };
  for (const s of services) {
    if (s.spec.portEnv && s.spec.urlEnv) env[s.spec.urlEnv] = `http://${h.ip}:${frontPort(s.port)}`;
    if (s.spec.channel) env[s.spec.channel.urlEnv] = `tcp://${h.ip}:${frontPort(s.spec.channel.devPort)}`;
    if (s.spec.databaseEnv)
      env[s.spec.databaseEnv] = `postgresql://postgres@${h.ip}:${PORTS.pgFront}/confab_${s.spec.service}`;
  }
  if (spec.portEnv) env[spec.portEnv] = String(spec.devPort);
  if (spec.channel) env[spec.channel.portEnv] = String(spec.channel.devPort);
  return env;
}

/** What E2E_ENV of tests/e2e/support/global-setup.ts sets, with the suite's own servers on the switch's address. */
function e2eSettings() {
  return {
    // As the suite's own runs: no development mail capture, so that a test's process with a mail server of its own
    // is the only one taking missed-message email (the hosts' push would otherwise take that queue's events).
    NODE_ENV: 'test',
    CONFAB_EVENTS_QUEUE_EXPIRES_MS: String(10 * 60_000),
    CONFAB_PASSWORD_HASH_COST: '10',
    CONFAB_OUTBOX_POLL_MS: '100',
    MESSAGING_UPLOAD_CLEANUP_INTERVAL_SECONDS: '2',
    CONFAB_OUTGOING_ALLOWED_CIDRS: `${SWITCH_IP}/32`,
  };
}

function startConfabProcess(h, state, p) {
  const pid = startIn(h.ns, process.execPath, [join(ROOT, 'scripts', 'run-process.mjs'), p.name], {
    env: confabEnv(h, state, p.spec),
    logFile: join(hostDir(h), 'logs', `${p.name}.log`),
  });
  state.pids[h.name][p.name] = pid;
  return pid;
}

async function confabReady(h, p, timeoutMs = 180_000) {
  if (!p.spec.portEnv) return;
  await until(
    `${p.name} on ${h.name}`,
    async () => (await probe(`http://${h.ip}:${p.port}/readyz`)) === 200,
    timeoutMs,
  );
}

function startEtcd(h) {
  return startIn(h.ns, 'etcd', etcdArgs(h), { logFile: join(hostDir(h), 'logs', 'etcd.log') });
}
function startPatroni(h) {
  return startIn(h.ns, 'patroni', [join(hostDir(h), 'patroni.yml')], {
    user: 'postgres',
    logFile: join(hostDir(h), 'logs', 'patroni.log'),
    env: { PGBACKREST_CONFIG: join(HA.dir, 'pgbackrest.conf') },
  });
}
function startRedis(h) {
  startIn(h.ns, 'redis-server', [join(hostDir(h), 'redis.conf')], { logFile: join(hostDir(h), 'logs', 'redis.log') });
  startIn(h.ns, 'redis-sentinel', [join(hostDir(h), 'sentinel.conf')], {
    logFile: join(hostDir(h), 'logs', 'sentinel.log'),
  });
}
function startRabbit(h, state) {
  return startIn(h.ns, 'rabbitmq-server', [], {
    env: rabbitEnv(h, state.cookie),
    logFile: join(hostDir(h), 'logs', 'rabbitmq.log'),
  });
}
function startHaproxy(h) {
  return startIn(h.ns, 'haproxy', ['-f', join(hostDir(h), 'haproxy.cfg')], {
    logFile: join(hostDir(h), 'logs', 'haproxy.log'),
  });
}

async function rabbitUp(h, state, timeoutMs = 180_000) {
  await until(
    `RabbitMQ on ${h.name}`,
    async () => rabbitctl(h, state.cookie, ['await_startup', '--timeout', '5'], { allowFail: true }).status === 0,
    timeoutMs,
  );
}

/** Starts the infrastructure of a host whose data exists (revive), and waits for each part. */
async function startInfra(h, state, { first = false, rabbit = true } = {}) {
  startEtcd(h);
  startPatroni(h);
  // A revived Redis starts as a replica of the master the sentinels know; its sentinel keeps its own view.
  const master = first ? HA.hosts[0] : (redisMaster() ?? HA.hosts[0]);
  writeFileSync(join(hostDir(h), 'redis.conf'), redisConf(h, master.ip));
  startRedis(h);
  if (rabbit) startRabbit(h, state);
  startHaproxy(h);
}

/**
 * The Debian packages the topology runs, by the program each provides; what is missing is installed with apt-get
 * (the topology needs root anyway). Their system services are not used: every daemon is started inside a namespace.
 */
const HA_PACKAGES = [
  { tool: 'etcd', pkg: 'etcd-server' },
  { tool: 'patroni', pkg: 'patroni' },
  { tool: 'haproxy', pkg: 'haproxy' },
  { tool: 'pgbackrest', pkg: 'pgbackrest' },
  { tool: 'redis-sentinel', pkg: 'redis-sentinel' },
  { tool: 'rabbitmq-server', pkg: 'rabbitmq-server' },
  { tool: 'curl', pkg: 'curl' },
];
function ensurePackages() {
  const which = (tool) => sh('which', [tool], { allowFail: true }).status === 0;
  const missing = () => HA_PACKAGES.filter((p) => !which(p.tool)).map((p) => p.pkg);
  let wanted = missing();
  if (wanted.length === 0) return;
  log(`installing ${wanted.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  // psycopg2 is Patroni's PostgreSQL driver, which Debian's patroni package only recommends.
  const install = () => apt(['install', '-y', '--no-install-recommends', ...wanted, 'python3-psycopg2']);
  if (!install()) {
    apt(['update']);
    install();
  }
  wanted = missing();
  if (wanted.length > 0) throw new Error(`${wanted.join(', ')} could not be installed: apt-get install them first`);
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

export async function up({ e2e = false } = {}) {
  if (process.getuid?.() !== 0) throw new Error('the three-host topology needs root (ip netns)');
  ensurePackages();
  log('removing what an earlier run left');
  down();
  const started = Date.now();
  mkdirSync(HA.dir, { recursive: true });
  const state = {
    cookie: randomBytes(16).toString('hex'),
    secrets: {
      internal: randomBytes(32).toString('base64url'),
      upload: randomBytes(32).toString('base64url'),
      meeting: randomBytes(32).toString('base64url'),
    },
    pids: Object.fromEntries(HA.hosts.map((h) => [h.name, {}])),
    port: HA.port,
    e2e,
  };
  writeState(state);
  try {
    log('network: namespaces cfha-net (switch), cfha-1..3, a bridge and a veth pair per host');
    makeNetwork();
    const services = confabProcesses();
    for (const dir of ['data', 'pgbackrest', 'pgbackrest-log', 'pgbackrest-lock', 'pgbackrest-spool']) {
      mkdirSync(join(HA.dir, dir), { recursive: true });
    }
    sh('chmod', ['755', HA.dir]);
    writeFileSync(join(HA.dir, 'pgbackrest.conf'), pgbackrestConf());
    for (const dir of ['pgbackrest', 'pgbackrest-log', 'pgbackrest-lock', 'pgbackrest-spool'])
      owned(join(HA.dir, dir), 'postgres');
    for (const h of HA.hosts) {
      const d = hostDir(h);
      for (const sub of ['logs', 'redis', 'rabbit']) mkdirSync(join(d, sub), { recursive: true });
      sh('chmod', ['755', d]);
      owned(d, 'postgres');
      writeFileSync(join(d, 'patroni.yml'), patroniYaml(h));
      owned(join(d, 'patroni.yml'), 'postgres');
      writeFileSync(join(d, 'sentinel.conf'), sentinelConf(h, HA.hosts[0].ip));
      writeFileSync(join(d, 'rabbit', 'rabbitmq.conf'), rabbitConf(h));
      writeFileSync(join(d, 'rabbit', 'enabled_plugins'), '[].\n');
      writeFileSync(join(d, 'rabbit', 'rabbitmq-env.conf'), '# the topology sets everything in the environment\n');
      sh('chown', ['-R', 'rabbitmq:rabbitmq', join(d, 'rabbit')]);
      writeFileSync(join(d, 'haproxy.cfg'), haproxyConf(h, services));
    }

    log('etcd, Patroni/PostgreSQL, Redis and Sentinel, RabbitMQ, HAProxy on each host');
    // RabbitMQ: the first node alone, then the others join it (classic config peer discovery).
    for (const h of HA.hosts) await startInfra(h, state, { first: true, rabbit: h === HA.hosts[0] });
    await rabbitUp(HA.hosts[0], state);
    for (const h of HA.hosts.slice(1)) startRabbit(h, state);
    await until('a PostgreSQL primary', async () => (await pgPrimary()) !== undefined, 180_000);
    const primary = await pgPrimary();
    log(`PostgreSQL primary: ${primary.name}`);
    await until(
      'a synchronous standby',
      async () =>
        HA.hosts.some((h) => h !== primary) &&
        (await probeText(`http://${primary.ip}:${PORTS.patroni}/cluster`)).includes('sync_standby'),
      180_000,
    );
    for (const h of HA.hosts) await rabbitUp(h, state);
    await until(
      'a RabbitMQ cluster of three',
      async () => {
        const r = rabbitctl(HA.hosts[0], state.cookie, ['cluster_status', '--formatter', 'json'], { allowFail: true });
        try {
          return JSON.parse(r.stdout).running_nodes.length === 3;
        } catch {
          return false;
        }
      },
      120_000,
    );
    log('RabbitMQ: three nodes running');

    log('pgBackRest: the stanza and a first full backup (WAL is archived continuously)');
    inNs(
      primary.ns,
      'runuser',
      [
        '-u',
        'postgres',
        '--',
        'pgbackrest',
        `--config=${join(HA.dir, 'pgbackrest.conf')}`,
        `--stanza=${STANZA}`,
        `--pg1-path=${join(hostDir(primary), 'pg')}`,
        `--pg1-socket-path=${hostDir(primary)}`,
        'stanza-create',
      ],
      {
        allowFail: false,
      },
    );
    inNs(primary.ns, 'runuser', [
      '-u',
      'postgres',
      '--',
      'pgbackrest',
      `--config=${join(HA.dir, 'pgbackrest.conf')}`,
      `--stanza=${STANZA}`,
      `--pg1-path=${join(hostDir(primary), 'pg')}`,
      `--pg1-socket-path=${hostDir(primary)}`,
      '--type=full',
      'backup',
    ]);

    log('databases and migrations, through the HAProxy of ha1');
    const h1 = HA.hosts[0];
    await until(
      'PostgreSQL through HAProxy',
      async () =>
        inNs(h1.ns, 'psql', ['-h', h1.ip, '-p', String(PORTS.pgFront), '-U', 'postgres', '-Atc', 'SELECT 1'], {
          allowFail: true,
        }).status === 0,
      60_000,
    );
    const env = confabEnv(h1, state, services[0].spec);
    for (const s of services.filter((x) => x.spec.databaseEnv)) {
      const db = `confab_${s.spec.service}`;
      inNs(h1.ns, 'psql', [
        '-h',
        h1.ip,
        '-p',
        String(PORTS.pgFront),
        '-U',
        'postgres',
        '-Atc',
        `SELECT 1 FROM pg_database WHERE datname='${db}'`,
      ]).stdout.trim() === '1' ||
        inNs(h1.ns, 'psql', [
          '-h',
          h1.ip,
          '-p',
          String(PORTS.pgFront),
          '-U',
          'postgres',
          '-c',
          `CREATE DATABASE ${db}`,
        ]);
    }
    inNs(h1.ns, process.execPath, [join(ROOT, 'scripts', 'migrate.mjs'), 'deploy'], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });

    log(`Confab: ${services.length} processes on each host`);
    writeState(state);
    for (const group of [services.filter((s) => s.name !== 'gateway'), services.filter((s) => s.name === 'gateway')]) {
      for (const h of HA.hosts) for (const p of group) startConfabProcess(h, state, p);
      writeState(state);
      await Promise.all(HA.hosts.flatMap((h) => group.map((p) => confabReady(h, p))));
    }

    log('the development organization');
    inNs(h1.ns, process.execPath, [join(ROOT, 'scripts', 'seed-dev.mjs')], {
      env: { ...process.env, ...env, CONFAB_GATEWAY_URL: `http://${h1.ip}:9991` },
      stdio: 'inherit',
    });

    writeFileSync(join(HA.dir, 'front.cfg'), frontConf());
    const front = spawn('haproxy', ['-f', join(HA.dir, 'front.cfg')], {
      stdio: ['ignore', openLog(join(HA.dir, 'front.log')), openLog(join(HA.dir, 'front.log'))],
      detached: true,
    });
    front.unref();
    state.frontPid = front.pid;
    writeFileSync(join(HA.dir, 'front.pid'), String(front.pid));
    writeState(state);
    await until(
      'the front balancer',
      async () => {
        const r = await fetch(`http://127.0.0.1:${HA.port}/api/v1/server_settings`).catch(() => undefined);
        return r?.status === 200;
      },
      30_000,
    );
  } catch (err) {
    log(`failed: ${err.message}; logs in ${HA.dir}/<host>/logs (removing the topology; CONFAB_HA_KEEP=1 keeps it)`);
    if (!process.env.CONFAB_HA_KEEP) down({ keepData: true });
    throw err;
  }
  const url = `http://127.0.0.1:${HA.port}`;
  log(`up in ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`
Confab on three hosts: ${url}
  log in with the development accounts and the password "${process.env.CONFAB_DEV_PASSWORD ?? 'confab-dev'}":
  desdemona@zulip.com (owner), iago@zulip.com (administrator), shiva@zulip.com (moderator), hamlet, othello, cordelia,
  prospero and aaron (members), polonius (guest); e.g.
    curl -s -d username=iago@zulip.com -d password=confab-dev ${url}/api/v1/fetch_api_key
  hosts ha1 ${HA.hosts[0].ip}, ha2 ${HA.hosts[1].ip}, ha3 ${HA.hosts[2].ip}: npm run ha -- status | kill ha2 | revive ha2 | partition ha3 | heal ha3 | down
`);
  return url;
}

/** SIGKILLs every process of a host. */
export function kill(name) {
  const h = host(name);
  killNamespace(h.ns);
  const state = readState();
  if (state) {
    state.pids[h.name] = {};
    state.killed = { ...(state.killed ?? {}), [h.name]: Date.now() };
    writeState(state);
  }
  log(`${h.name}: every process killed`);
}

/** Starts every process of a killed host again, with its data: each part rejoins its cluster. */
export async function revive(name) {
  const h = host(name);
  const state = readState();
  if (!state) throw new Error('the topology is not up');
  killNamespace(h.ns);
  await startInfra(h, state);
  await rabbitUp(h, state);
  const services = confabProcesses();
  for (const group of [services.filter((s) => s.name !== 'gateway'), services.filter((s) => s.name === 'gateway')]) {
    for (const p of group) startConfabProcess(h, state, p);
    await Promise.all(group.map((p) => confabReady(h, p)));
  }
  if (state.killed) delete state.killed[h.name];
  writeState(state);
  log(`${h.name}: revived`);
}

/** Cuts a host off the network (its link to the switch goes down); its processes go on running. */
export function partition(name) {
  const h = host(name);
  ip('-n', HA.netns, 'link', 'set', h.veth, 'down');
  log(`${h.name}: cut off`);
}

export function heal(name) {
  const h = host(name);
  ip('-n', HA.netns, 'link', 'set', h.veth, 'up');
  log(`${h.name}: connected again`);
}

/** Restarts one Confab process of a host (SIGTERM, its graceful stop; then start and wait until it is ready). */
export async function restartProcess(name, processName) {
  const h = host(name);
  const state = readState();
  const p = confabProcesses().find((x) => x.name === processName);
  const pid = state.pids[h.name][processName];
  if (pid) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        process.kill(pid, 0);
        await sleep(100);
      } catch {
        break;
      }
    }
    killPid(pid);
  }
  startConfabProcess(h, state, p);
  writeState(state);
  await confabReady(h, p);
}

export function confabProcessNames() {
  return confabProcesses().map((p) => p.name);
}

export async function status() {
  const state = readState();
  if (!state || !namespaces().includes(HA.netns)) {
    console.log('the three-host topology is not up (npm run ha -- up)');
    return;
  }
  const primary = await pgPrimary();
  const master = redisMaster();
  const leaders = rabbitLeaders(state);
  const leaderCount = {};
  for (const leader of Object.values(leaders)) leaderCount[leader] = (leaderCount[leader] ?? 0) + 1;
  console.log(`front balancer: http://127.0.0.1:${HA.port}`);
  for (const h of HA.hosts) {
    const link = sh('ip', ['-n', HA.netns, '-br', 'link', 'show', h.veth], { allowFail: true }).stdout.includes('UP')
      ? 'connected'
      : 'cut off';
    const pids = sh('ip', ['netns', 'pids', h.ns], { allowFail: true }).stdout.split('\n').filter(Boolean).length;
    const ready = [];
    for (const p of confabProcesses().filter((x) => x.spec.portEnv))
      if ((await probe(`http://${h.ip}:${p.port}/readyz`, 1000)) === 200) ready.push(p.name);
    console.log(
      `${h.name} ${h.ip}: ${link}, ${pids} processes; PostgreSQL ${primary === h ? 'primary' : 'standby'}; Redis ${master === h ? 'master' : 'replica'}; RabbitMQ leader of ${leaderCount[h.name] ?? 0} quorum queues; ready: ${ready.join(', ') || 'none'}`,
    );
  }
}

/**
 * The addresses the end-to-end suite needs (CONFAB_TEST_STATE, README): seen from the switch's namespace, where the
 * suite then runs (`npm run test:ha -- e2e`): the front balancer, every service behind ha1's HAProxy, the internal
 * secret, the databases, every host's metrics listeners and processes' settings.
 */
export function e2eState(file = join(HA.dir, 'e2e-state.json')) {
  const state = readState();
  if (!state) throw new Error('the topology is not up');
  const h1 = HA.hosts[0];
  const serviceUrls = {};
  for (const p of confabProcesses())
    if (p.spec.urlEnv) serviceUrls[p.spec.service] = `http://${h1.ip}:${frontPort(p.port)}`;
  serviceUrls.gateway = `http://127.0.0.1:${HA.port}`;
  // What a test's extra copy of a process (startExtraProcess) runs with: ha1's settings (so it joins the deployment:
  // its PostgreSQL, Redis, RabbitMQ and services through ha1's HAProxy), listening in the switch's namespace, where
  // the suite runs (a fourth machine on the hosts' network).
  // Every host's copy is listed, named as the stack names replicas (`messaging-worker`, `messaging-worker-2`, …).
  const processes = {};
  for (const p of confabProcesses())
    HA.hosts.forEach((h, i) => {
      const name = i === 0 ? p.name : `${p.name}-${i + 1}`;
      const env = { ...confabEnv(h, state, p.spec), CONFAB_BIND_HOST: '0.0.0.0', CONFAB_METRICS_HOST: '127.0.0.1' };
      processes[name] = { name, pid: 0, env };
    });
  // Each host's metrics listeners (`up --e2e` puts them on the host's address), named as the stack names replicas.
  const metricsUrls = {};
  const databases = {};
  for (const p of confabProcesses()) {
    HA.hosts.forEach((h, i) => {
      if (state.e2e) metricsUrls[i === 0 ? p.name : `${p.name}-${i + 1}`] = `http://${h.ip}:${p.spec.devMetricsPort}`;
    });
    if (p.spec.databaseEnv)
      databases[p.spec.service] = `postgresql://postgres@${h1.ip}:${PORTS.pgFront}/confab_${p.spec.service}`;
  }
  const info = {
    processes,
    // The address the tests' own servers (bot services, pages to preview, images) listen on: the hosts reach it.
    testHost: SWITCH_IP,
    runId: '',
    // The front balancer (bound in the switch's namespace too): every host's gateway, as the users reach them.
    gatewayUrl: `http://127.0.0.1:${HA.port}`,
    serviceUrls,
    metricsUrls,
    internalSecret: state.secrets.internal,
    redisUrl: `redis://${(redisMaster() ?? h1).ip}:${PORTS.redis}`,
    redisPrefix: 'confab',
    amqpUrl: `amqp://guest:guest@${h1.ip}:${PORTS.amqp}`,
    exchange: 'confab.events',
    postgresUrl: `postgresql://postgres@${h1.ip}:${PORTS.pgFront}`,
    databases,
    logDir: join(HA.dir, 'e2e-logs'),
  };
  mkdirSync(info.logDir, { recursive: true });
  writeFileSync(file, JSON.stringify(info, null, 2));
  return file;
}

async function main() {
  const [command, arg] = process.argv.slice(2);
  switch (command) {
    case 'e2e-state':
      console.log(e2eState(arg));
      break;
    case 'up':
      await up({ e2e: arg === '--e2e' });
      break;
    case 'down':
      down();
      log('down: namespaces, links, processes and data removed');
      break;
    case 'status':
      await status();
      break;
    case 'kill':
      kill(arg);
      break;
    case 'revive':
      await revive(arg);
      break;
    case 'partition':
      partition(arg);
      break;
    case 'heal':
      heal(arg);
      break;
    default:
      console.error(
        'usage: npm run ha -- up [--e2e] | down | status | kill <host> | revive <host> | partition <host> | heal <host>',
      );
      process.exit(2);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(`[ha] ${err.message}`);
      process.exit(1);
    },
  );
}
