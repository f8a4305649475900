// CPU per process from /proc, for the benchmarks that divide it by operations (cpu-per-op, scheduled-lateness).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/**
 * CPU seconds (user + system) a process has used so far, with `children` also what its exited children used
 * (PostgreSQL's backends come and go; the postmaster reaps them).
 */
export function cpuSeconds(pid, children = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    const reaped = children ? Number(fields[13]) + Number(fields[14]) : 0;
    return (own + reaped) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export function processTable() {
  const table = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      table.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** A process and all its descendants. */
export function tree(table, root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) for (const p of table) if (p.ppid === pids[i]) pids.push(p.pid);
  return pids;
}

/** The process listening on a TCP port (from /proc/net/tcp and the processes' socket descriptors). */
export function listener(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A: LISTEN
      if (parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9]);
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`))?.[1];
        if (target && inodes.has(target)) return Number(entry);
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** The root process of every part of the system: Confab's own, and the private servers (found by their ports). */
export function processRoots(stack, servers) {
  const roots = {};
  for (const [name, proc] of stack.processes) roots[name] = proc.pid;
  roots.postgresql = listener(servers.postgres.port);
  roots.redis = listener(servers.redis.port);
  roots.rabbitmq = listener(servers.rabbitmq.port);
  return roots;
}

/** CPU seconds so far of each part: its root with everything it reaped, plus its live descendants. */
export function snapshot(roots) {
  const table = processTable();
  return Object.fromEntries(
    Object.entries(roots).map(([name, root]) => {
      const live = tree(table, root).slice(1);
      return [name, cpuSeconds(root, true) + live.reduce((sum, pid) => sum + cpuSeconds(pid), 0)];
    }),
  );
}

/** CPU ms per operation of each part between two snapshots, and their total. */
export function perOperation(before, after, operations) {
  const parts = Object.fromEntries(
    Object.keys(after).map((name) => [name, ((after[name] - (before[name] ?? 0)) * 1000) / operations]),
  );
  return { parts, total: Object.values(parts).reduce((a, b) => a + b, 0) };
}
