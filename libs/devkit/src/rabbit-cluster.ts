import { execFile, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, portOpen } from './infra.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One node of a local RabbitMQ cluster. */
export interface RabbitNode {
  /** Erlang node name, e.g. `confab20345a@localhost`. */
  name: string;
  port: number;
  url: string;
  /** Stops the node (rabbitmqctl stop), as a crash or a rolling restart would take it away. */
  stop(): Promise<void>;
  /** Starts it again with its data: it rejoins the cluster. */
  start(): Promise<void>;
  /** `rabbitmqctl` against this node. */
  ctl(args: string[]): Promise<string>;
}

export interface RabbitCluster {
  nodes: RabbitNode[];
  /**
   * The cluster's one address for clients: a TCP balancer on 127.0.0.1 that hands each new connection to the next
   * node that accepts it, as a Kubernetes Service in front of the RabbitMQ pods does. A client whose node stops is
   * disconnected and reconnects through it to a node that runs.
   */
  url: string;
  /** `rabbitmqctl` against one running node of the cluster. */
  ctl(args: string[]): Promise<string>;
  /** Stops every node and the balancer, and removes the data. */
  destroy(): Promise<void>;
}

/** Waits until something listens on the port of 127.0.0.1 (`up`), or nothing does. */
export async function waitForPort(port: number, up: boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await portOpen('127.0.0.1', port, 500)) === up) return;
    await sleep(200);
  }
  throw new Error(`${what} did not ${up ? 'start' : 'stop'} within ${timeoutMs} ms`);
}

export async function rabbitOwner(): Promise<[number, number]> {
  const uid = (await run('id', ['-u', 'rabbitmq'])).stdout.trim();
  const gid = (await run('id', ['-g', 'rabbitmq'])).stdout.trim();
  return [Number(uid), Number(gid)];
}

/**
 * A node from this machine's rabbitmq-server with its own name, ports, data and log directories (under
 * `base/label`, owned by the rabbitmq user); the machine's own RabbitMQ is never touched. Not started yet.
 */
export async function localRabbitNode(base: string, label: string, owner: [number, number]): Promise<RabbitNode> {
  const port = await freePort();
  const distPort = await freePort();
  const name = `confab${port}${label}@localhost`;
  const dir = join(base, label);
  const config = join(dir, 'rabbitmq.conf');
  mkdirSync(dir);
  chownSync(dir, ...owner);
  writeFileSync(config, `listeners.tcp.local = 127.0.0.1:${port}\n`);
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  chownSync(config, ...owner);
  const env = {
    ...process.env,
    RABBITMQ_NODENAME: name,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_CONFIG_FILE: config,
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
  };
  return {
    name,
    port,
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    async start() {
      spawn('rabbitmq-server', ['-detached'], { env, stdio: 'ignore' }).unref();
      await waitForPort(port, true, 90_000, `RabbitMQ node ${name}`);
    },
    async stop() {
      await run('rabbitmqctl', ['-n', name, 'stop'], { env }).catch(() => undefined);
      await waitForPort(port, false, 60_000, `RabbitMQ node ${name}`);
    },
    async ctl(args) {
      return (await run('rabbitmqctl', ['-n', name, ...args])).stdout;
    },
  };
}

/** The balancer: each client connection goes to the next node that accepts it, bytes copied both ways. */
async function balancer(nodes: readonly RabbitNode[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const open = new Set<Socket>();
  const upstream = (attempt: number, done: (socket: Socket | null) => void) => {
    if (attempt >= nodes.length) return done(null);
    const node = nodes[next++ % nodes.length]!;
    const socket = connect({ host: '127.0.0.1', port: node.port });
    socket.once('connect', () => done(socket));
    socket.once('error', () => {
      socket.destroy();
      upstream(attempt + 1, done);
    });
  };
  const server = createServer((client) => {
    open.add(client);
    client.pause();
    client.on('error', () => undefined);
    client.on('close', () => open.delete(client));
    upstream(0, (node) => {
      if (!node || client.destroyed) {
        node?.destroy();
        client.destroy();
        return;
      }
      node.on('error', () => undefined);
      node.on('close', () => client.destroy());
      client.on('close', () => node.destroy());
      client.pipe(node).pipe(client);
      client.resume();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.on('close', () => open.forEach((s) => s.destroy()));
  return { server, port };
}

/**
 * A three-node RabbitMQ cluster on this machine, from Debian's rabbitmq-server (nodes with names, ports and data
 * of their own; the machine's RabbitMQ on 5672 keeps running untouched), and a balancer in front. The second and
 * third nodes join the first. For the fault tests and for running quorum queues locally (README).
 */
export async function startRabbitCluster(size = 3): Promise<RabbitCluster> {
  const owner = await rabbitOwner();
  const base = mkdtempSync(join(tmpdir(), 'confab-rabbit-cluster-'));
  chownSync(base, ...owner);
  const nodes: RabbitNode[] = [];
  let front: { server: Server; port: number } | undefined;
  const destroy = async () => {
    front?.server.close();
    await Promise.all(nodes.map((node) => node.stop().catch(() => undefined)));
    rmSync(base, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < size; i++) nodes.push(await localRabbitNode(base, String.fromCharCode(97 + i), owner));
    await Promise.all(nodes.map((node) => node.start()));
    for (const node of nodes.slice(1)) {
      await node.ctl(['stop_app']);
      await node.ctl(['join_cluster', nodes[0]!.name]);
      await node.ctl(['start_app']);
    }
    await nodes[0]!.ctl(['await_startup']);
    front = await balancer(nodes);
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    nodes,
    url: `amqp://guest:guest@127.0.0.1:${front.port}`,
    async ctl(args) {
      for (const node of nodes) if (await portOpen('127.0.0.1', node.port, 500)) return node.ctl(args);
      throw new Error('no node of the cluster is running');
    },
    destroy,
  };
}
