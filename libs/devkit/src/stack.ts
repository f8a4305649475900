import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { signIdentity } from '@confab/identity';
import { databaseServices, processes, type ProcessSpec } from './catalog.js';
import { createDatabase, databaseUrl, dropDatabase, migrate, stackDatabaseName } from './databases.js';
import { freePort, type Infrastructure } from './infra.js';
import { LocalBalancer, TcpBalancer } from './balancer.js';
import { ManagedProcess, waitReady } from './processes.js';
import { deleteRedisKeys } from './redis-cluster.js';

export interface StackOptions {
  infra: Infrastructure;
  /** '' for the development deployment; a unique id per test run, naming its databases, Redis keys and exchange. */
  runId: string;
  /** Fixed development ports, or free ports chosen at random (tests). */
  ports: 'dev' | 'random';
  /** Extra environment for every process. */
  env?: Record<string, string>;
  logDir: string;
  /** Echo process output to this process's stdout (development start). */
  echo?: boolean;
  /**
   * Address the gateway listens on (the published one; `npm start`: CONFAB_BIND_HOST, else all interfaces). Every
   * other process listens on 127.0.0.1 only. Default 127.0.0.1.
   */
  gatewayHost?: string;
  /** Use the run's databases when they exist already (a test that restored a backup into them first). */
  reuseDatabases?: boolean;
  /**
   * How many replicas of every service, worker and the gateway to run (README, "Replicas"). With more than one, a
   * LocalBalancer listens on each HTTP process's port and spreads requests over its replicas; default 1.
   */
  replicas?: number;
}

/** The process name of a replica: the catalog's name for the first, `<name>-2`, `<name>-3`… for the others. */
export function replicaName(name: string, index: number): string {
  return index === 0 ? name : `${name}-${index + 1}`;
}

/** CONFAB_REPLICAS from an environment: a whole number of replicas of every process, 1 when unset. */
export function replicasFromEnv(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.CONFAB_REPLICAS ?? 1);
  if (!Number.isInteger(value) || value < 1 || value > 8) throw new Error('CONFAB_REPLICAS must be a whole number 1–8');
  return value;
}

/**
 * How long a process may take to answer its readiness check after it starts. A quiet machine starts each in a
 * second or two; on a machine whose cores are shared with other busy work, loading a process's modules alone has been
 * seen to take over a minute, and a start that is merely slow must not fail the run.
 */
const READY_TIMEOUT_MS = 180_000;

/**
 * The development default of libs/config (DEVELOPMENT_INTERNAL_SECRET), accepted only by processes in development
 * and test; the stack never uses it: it generates a secret per run.
 */
export const DEV_INTERNAL_SECRET = 'confab-dev-internal-secret-change-me';

/** A random secret for one run of a stack (identity tokens between its processes). */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

export interface ProcessDescription {
  name: string;
  pid: number;
  env: Record<string, string>;
}

/** Everything a caller needs to reach a running stack; serialisable, so jest workers can read it from a file. */
export interface StackInfo {
  runId: string;
  gatewayUrl: string;
  serviceUrls: Record<string, string>;
  /** Each process's internal Prometheus listener (`http://127.0.0.1:port`), by process name. */
  metricsUrls: Record<string, string>;
  internalSecret: string;
  redisUrl: string;
  redisPrefix: string;
  amqpUrl: string;
  exchange: string;
  postgresUrl: string;
  databases: Record<string, string>;
  logDir: string;
}

/**
 * A whole Confab deployment on this machine: one database per service (migrated), every process of the catalog,
 * and the gateway in front. Used by the development start command, the end-to-end suite and the benchmarks.
 */
export class Stack {
  readonly processes = new Map<string, ManagedProcess>();
  private readonly balancers: (LocalBalancer | TcpBalancer)[] = [];
  info!: StackInfo;
  private databaseNames: string[] = [];
  /** Where the gateway serves Prometheus metrics. */
  gatewayMetricsUrl: string | undefined;

  constructor(private readonly options: StackOptions) {}

  private dbName(service: string): string {
    return stackDatabaseName(this.options.runId, service);
  }

  /**
   * Creates the databases, migrates them and starts every process. When any step fails, what did start is stopped
   * (and a test run's databases, Redis keys and exchange dropped) before the error is thrown: a caller that fails
   * at start-up leaves nothing running behind it.
   */
  async start(): Promise<StackInfo> {
    try {
      return await this.startAll();
    } catch (err) {
      await this.stop({ cleanUp: Boolean(this.options.runId) }).catch(() => undefined);
      throw err;
    }
  }

  private async startAll(): Promise<StackInfo> {
    const { infra, runId } = this.options;
    const specs = processes();
    const replicas = this.options.replicas ?? 1;
    const serviceUrls: Record<string, string> = {};
    const portEnv: Record<string, string> = {};
    const urlEnv: Record<string, string> = {};
    // The HTTP port of each replica (by replica name); with replicas, a balancer takes the process's own port.
    const replicaPorts: Record<string, number[]> = {};
    // The same for a process's channel listener (a TCP balancer spreads connections over the replicas, as a Service).
    const channelPortEnv: Record<string, string> = {};
    const replicaChannelPorts: Record<string, number[]> = {};
    for (const spec of specs) {
      if (!spec.portEnv) continue;
      const port = this.options.ports === 'dev' ? spec.devPort! : await freePort();
      serviceUrls[spec.service] = `http://127.0.0.1:${port}`;
      if (spec.urlEnv) urlEnv[spec.urlEnv] = serviceUrls[spec.service]!;
      const ports = replicas === 1 ? [port] : await Promise.all(Array.from({ length: replicas }, () => freePort()));
      ports.forEach((replicaPort, i) => (portEnv[replicaName(spec.name, i)] = String(replicaPort)));
      if (replicas > 1) replicaPorts[spec.name] = [port, ...ports];
      if (spec.channel) {
        const channelPort = this.options.ports === 'dev' ? spec.channel.devPort : await freePort();
        urlEnv[spec.channel.urlEnv] = `tcp://127.0.0.1:${channelPort}`;
        const channelPorts =
          replicas === 1 ? [channelPort] : await Promise.all(Array.from({ length: replicas }, () => freePort()));
        channelPorts.forEach((p, i) => (channelPortEnv[replicaName(spec.name, i)] = String(p)));
        if (replicas > 1) replicaChannelPorts[spec.name] = [channelPort, ...channelPorts];
      }
    }
    const gatewayUrl = serviceUrls.gateway!;
    // Every process serves /metrics on an internal listener of its own, on 127.0.0.1 (docs/security.md).
    const metricsPorts: Record<string, string> = {};
    const metricsUrls: Record<string, string> = {};
    for (const spec of specs) {
      for (let i = 0; i < replicas; i++) {
        const name = replicaName(spec.name, i);
        const port = this.options.ports === 'dev' && i === 0 ? spec.devMetricsPort : await freePort();
        metricsPorts[name] = String(port);
        metricsUrls[name] = `http://127.0.0.1:${port}`;
      }
    }
    this.gatewayMetricsUrl = metricsUrls.gateway;

    const databases: Record<string, string> = {};
    const dbEnv: Record<string, string> = {};
    await Promise.all(
      databaseServices().map(async (spec) => {
        const name = this.dbName(spec.service);
        const url = await createDatabase(infra.postgresUrl, name, { ifMissing: !runId || this.options.reuseDatabases });
        this.databaseNames.push(name);
        databases[spec.service] = url;
        dbEnv[spec.databaseEnv!] = url;
        await migrate(spec, url);
      }),
    );

    const redisPrefix = runId ? `confab-${runId}` : 'confab';
    const exchange = runId ? `confab.events.${runId}` : 'confab.events';
    // Never the development default of the source: a random secret per run, unless the caller gives one.
    const secret = this.options.env?.CONFAB_INTERNAL_SECRET ?? generateSecret();
    const common: Record<string, string> = {
      NODE_ENV: runId ? 'test' : 'development',
      LOG_LEVEL: runId ? 'info' : 'info',
      CONFAB_INTERNAL_SECRET: secret,
      // Temporary upload URLs are signed with a key of their own, also one per run (production requires it).
      CONFAB_UPLOAD_URL_KEY: generateSecret(),
      // So is the key sealing stored meeting provider tokens (users authorize again after a restart).
      CONFAB_MEETING_TOKEN_KEY: generateSecret(),
      REDIS_URL: infra.redisUrl,
      CONFAB_REDIS_PREFIX: redisPrefix,
      AMQP_URL: infra.amqpUrl,
      CONFAB_EVENTS_EXCHANGE: exchange,
      // Organizations are told apart by subdomain, which an IP address cannot have: test runs use localhost.
      CONFAB_EXTERNAL_URL: runId ? gatewayUrl.replace('127.0.0.1', 'localhost') : gatewayUrl,
      ...dbEnv,
      ...urlEnv,
      ...(runId ? { CONFAB_EVENTS_QUEUE_EXPIRES_MS: String(10 * 60_000) } : {}),
      ...this.options.env,
    };
    this.info = {
      runId,
      gatewayUrl,
      serviceUrls,
      metricsUrls,
      internalSecret: secret,
      redisUrl: infra.redisUrl,
      redisPrefix,
      amqpUrl: infra.amqpUrl,
      exchange,
      postgresUrl: infra.postgresUrl,
      databases,
      logDir: this.options.logDir,
    };

    // Services first, the gateway last, so it never routes to something that is not up yet.
    const published = this.options.gatewayHost ?? '127.0.0.1';
    for (const group of [specs.filter((s) => s.name !== 'gateway'), specs.filter((s) => s.name === 'gateway')]) {
      const launches = group.flatMap((spec) =>
        Array.from({ length: replicas }, (_, i) => {
          const name = replicaName(spec.name, i);
          return () => this.launch(spec, name, common, portEnv[name], metricsPorts[name]!, channelPortEnv[name]);
        }),
      );
      // Every launch settles before a failure is thrown, so that stopping after it finds every process started.
      const launched = await Promise.allSettled(launches.map((launch) => launch()));
      const failures = launched.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new Error(failures.map((failure) => failure.message).join('\n'));
      for (const spec of group) {
        const [channelPort, ...channelPorts] = replicaChannelPorts[spec.name] ?? [];
        if (channelPort !== undefined) {
          const balancer = new TcpBalancer(channelPorts.map((p) => ({ host: '127.0.0.1', port: p })));
          this.balancers.push(balancer);
          await balancer.listen(channelPort);
        }
        const [port, ...ports] = replicaPorts[spec.name] ?? [];
        if (port === undefined) continue;
        const balancer = new LocalBalancer(ports.map((p) => ({ host: '127.0.0.1', port: p })));
        this.balancers.push(balancer);
        await balancer.listen(port, spec.name === 'gateway' ? published : '127.0.0.1');
      }
    }
    return this.info;
  }

  private async launch(
    spec: ProcessSpec,
    name: string,
    common: Record<string, string>,
    port: string | undefined,
    metricsPort: string,
    channelPort?: string,
  ): Promise<void> {
    const env: Record<string, string> = {
      // Only the gateway is published; the services answer on the loopback interface alone. Replicas behind a
      // balancer answer only it, on the loopback interface.
      CONFAB_BIND_HOST:
        spec.name === 'gateway' && (this.options.replicas ?? 1) === 1
          ? (this.options.gatewayHost ?? '127.0.0.1')
          : '127.0.0.1',
      CONFAB_METRICS_HOST: '127.0.0.1',
      CONFAB_METRICS_PORT: metricsPort,
      ...common,
      ...(spec.portEnv ? { [spec.portEnv]: port! } : {}),
      ...(spec.channel && channelPort ? { [spec.channel.portEnv]: channelPort } : {}),
    };
    const logFile = join(this.options.logDir, `${name}.log`);
    const proc = new ManagedProcess({ ...spec, name }, env, logFile, this.options.echo ?? false);
    this.processes.set(name, proc);
    proc.start();
    if (spec.portEnv) await waitReady(`http://127.0.0.1:${port}/readyz`, READY_TIMEOUT_MS, name, proc, logFile);
  }

  /** Restarts one process (graceful stop or crash) and waits until it is ready again. */
  async restart(name: string, how: 'stop' | 'kill' = 'stop'): Promise<void> {
    const proc = this.processes.get(name);
    if (!proc) throw new Error(`no process ${name}`);
    await (how === 'kill' ? proc.kill() : proc.stop());
    proc.start();
    if (proc.spec.portEnv) {
      await waitReady(
        `http://127.0.0.1:${proc.env[proc.spec.portEnv]}/readyz`,
        READY_TIMEOUT_MS,
        name,
        proc,
        join(this.options.logDir, `${name}.log`),
      );
    }
  }

  /** Stops every process; for test runs also drops the databases, Redis keys and exchanges of the run. */
  async stop(options: { cleanUp: boolean }): Promise<void> {
    const names = [...this.processes.keys()];
    // The balancers and the gateway first, then the rest in parallel.
    await Promise.all(this.balancers.map((balancer) => balancer.close()));
    const gateways = names.filter((n) => this.processes.get(n)!.spec.service === 'gateway');
    await Promise.all(gateways.map((n) => this.processes.get(n)!.stop()));
    await Promise.all(names.filter((n) => !gateways.includes(n)).map((n) => this.processes.get(n)!.stop()));
    if (!options.cleanUp) return;
    await Promise.all(
      this.databaseNames.map((name) => dropDatabase(this.options.infra.postgresUrl, name).catch(() => undefined)),
    );
    if (!this.info) return;
    await deleteRedisKeys(this.info.redisUrl, `${this.info.redisPrefix}:`).catch(() => undefined);
    await deleteExchanges(this.info.amqpUrl, [this.info.exchange, `${this.info.exchange}.dlx`]).catch(() => undefined);
  }

  /** Pid and environment of each process, so a test can kill one or start another copy of it. */
  describeProcesses(): Record<string, ProcessDescription> {
    const out: Record<string, ProcessDescription> = {};
    for (const [name, proc] of this.processes) out[name] = { name, pid: proc.pid ?? 0, env: proc.env };
    return out;
  }

  /** A short-lived token other processes accept on /internal endpoints. */
  serviceToken(): string {
    return signIdentity({ kind: 'service', service: 'devkit' }, this.info.internalSecret);
  }
}

export function serviceToken(info: Pick<StackInfo, 'internalSecret'>): string {
  return signIdentity({ kind: 'service', service: 'devkit' }, info.internalSecret);
}

async function deleteExchanges(url: string, names: string[]): Promise<void> {
  const connection = await connect(url);
  try {
    const channel = await connection.createChannel();
    for (const name of names) await channel.deleteExchange(name);
  } finally {
    await connection.close();
  }
}

export { databaseUrl };
