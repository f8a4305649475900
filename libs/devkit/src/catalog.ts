import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's root directory (libs/devkit/dist → ../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/**
 * V8 flags every Confab process runs with, wherever it starts (this catalog's launcher, and `NODE_OPTIONS` in the
 * Dockerfile, which Compose and Kubernetes inherit). A larger young generation: request-serving processes allocate
 * many short-lived objects, and with V8's default the scavenger ran so often that it was up to a fifth of a busy
 * process's CPU (bench/RESULTS.md, "CPU per operation").
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

export interface ProcessSpec {
  /** Process name, as printed in logs. */
  name: string;
  /** The service it belongs to (its database, port and URL variables). */
  service: string;
  /** Package directory, relative to the repository root. */
  dir: string;
  /** Built entry point inside the package. */
  entry: string;
  /** Variable that sets its HTTP port, if it listens. */
  portEnv?: string;
  /** Port used by the development start command. */
  devPort?: number;
  /** Port of its internal /metrics listener (CONFAB_METRICS_PORT) in the development start command. */
  devMetricsPort: number;
  /** Variable other processes read its base URL from. */
  urlEnv?: string;
  /** A second, TCP listener (the events service's channel for the gateway): its port variable, URL variable, dev port. */
  channel?: { portEnv: string; urlEnv: string; devPort: number };
  /** Variable holding its database URL (services with a Prisma schema). */
  databaseEnv?: string;
  /**
   * Uses no database, Redis or broker (the integrations service): its deployments give it none of their URLs, and
   * it starts without waiting for the migrations.
   */
  stateless?: boolean;
}

/** Every process of a full Confab deployment; a service is only run once its package exists. */
const ALL: ProcessSpec[] = [
  {
    name: 'settings',
    service: 'settings',
    dir: 'services/settings',
    entry: 'dist/main.js',
    portEnv: 'SETTINGS_PORT',
    devPort: 9101,
    devMetricsPort: 9201,
    urlEnv: 'SETTINGS_URL',
    databaseEnv: 'SETTINGS_DATABASE_URL',
  },
  {
    name: 'messaging',
    service: 'messaging',
    dir: 'services/messaging',
    entry: 'dist/main.js',
    portEnv: 'MESSAGING_PORT',
    devPort: 9102,
    devMetricsPort: 9202,
    urlEnv: 'MESSAGING_URL',
    databaseEnv: 'MESSAGING_DATABASE_URL',
  },
  {
    name: 'messaging-worker',
    service: 'messaging',
    dir: 'services/messaging',
    entry: 'dist/worker.js',
    devMetricsPort: 9211,
    databaseEnv: 'MESSAGING_DATABASE_URL',
  },
  {
    name: 'groups',
    service: 'groups',
    dir: 'services/groups',
    entry: 'dist/main.js',
    portEnv: 'GROUPS_PORT',
    devPort: 9103,
    devMetricsPort: 9203,
    urlEnv: 'GROUPS_URL',
    databaseEnv: 'GROUPS_DATABASE_URL',
  },
  {
    name: 'invitations',
    service: 'invitations',
    dir: 'services/invitations',
    entry: 'dist/main.js',
    portEnv: 'INVITATIONS_PORT',
    devPort: 9104,
    devMetricsPort: 9204,
    urlEnv: 'INVITATIONS_URL',
    databaseEnv: 'INVITATIONS_DATABASE_URL',
  },
  {
    name: 'push',
    service: 'push',
    dir: 'services/push',
    entry: 'dist/main.js',
    portEnv: 'PUSH_PORT',
    devPort: 9105,
    devMetricsPort: 9205,
    urlEnv: 'PUSH_URL',
    databaseEnv: 'PUSH_DATABASE_URL',
  },
  {
    name: 'push-worker',
    service: 'push',
    dir: 'services/push',
    entry: 'dist/worker.js',
    devMetricsPort: 9215,
    databaseEnv: 'PUSH_DATABASE_URL',
  },
  {
    name: 'events',
    service: 'events',
    dir: 'services/events',
    entry: 'dist/main.js',
    portEnv: 'EVENTS_PORT',
    devPort: 9106,
    devMetricsPort: 9206,
    urlEnv: 'EVENTS_URL',
    channel: { portEnv: 'EVENTS_CHANNEL_PORT', urlEnv: 'EVENTS_CHANNEL_URL', devPort: 9116 },
  },
  {
    // Stateless: translates incoming webhooks (/api/v1/external/*) and posts them through messaging.
    name: 'integrations',
    service: 'integrations',
    dir: 'services/integrations',
    entry: 'dist/main.js',
    portEnv: 'INTEGRATIONS_PORT',
    devPort: 9108,
    devMetricsPort: 9208,
    urlEnv: 'INTEGRATIONS_URL',
    stateless: true,
  },
  {
    name: 'gateway',
    service: 'gateway',
    dir: 'gateway',
    entry: 'dist/main.js',
    portEnv: 'CONFAB_PORT',
    devPort: 9991,
    devMetricsPort: 9464,
  },
];

function present(spec: ProcessSpec): boolean {
  const pkg = join(REPO_ROOT, spec.dir, 'package.json');
  if (!existsSync(pkg)) return false;
  // Workers appear with their entry point's source.
  return existsSync(join(REPO_ROOT, spec.dir, 'src', spec.entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
}

/** Every planned process, whether or not its package exists yet (the deployment manifests cover them all). */
export function plannedProcesses(): readonly ProcessSpec[] {
  return ALL;
}

export function processes(): ProcessSpec[] {
  return ALL.filter(present);
}

/** Services that own a database, in start order (their schemas are migrated before anything starts). */
export function databaseServices(): ProcessSpec[] {
  const seen = new Set<string>();
  return processes().filter((p) => p.databaseEnv && !seen.has(p.service) && seen.add(p.service));
}
