import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plannedProcesses } from '../../libs/devkit/src/catalog';
import {
  find,
  K8S_DIR,
  kustomizeBuild,
  schemaErrors,
  unknownFieldErrors,
  workingCopy,
  type K8sObject,
} from './manifests';

const REPO = join(__dirname, '..', '..');
const PGBOUNCER = join(K8S_DIR, 'data', 'pgbouncer');

/** pgbouncer.ini's settings: `[pgbouncer]` keys, and each database's pool_size. */
function ini(): { settings: Record<string, string>; pools: Record<string, number> } {
  const settings: Record<string, string> = {};
  const pools: Record<string, number> = {};
  let section = '';
  for (const raw of readFileSync(join(PGBOUNCER, 'pgbouncer.ini'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1]!;
    else if (section === 'databases') pools[line.split('=')[0]!.trim()] = Number(/pool_size=(\d+)/.exec(line)?.[1]);
    else settings[line.split('=')[0]!.trim()] = line.slice(line.indexOf('=') + 1).trim();
  }
  return { settings, pools };
}

/** A process's configured value of `name`: its ConfigMaps in the render, else its config's default. */
function setting(objects: K8sObject[], process: string, dir: string, name: string): number {
  const deployment = find(objects, 'Deployment', process)!;
  for (const source of deployment.spec.template.spec.containers[0].envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef.name);
    if (map?.data?.[name] !== undefined) return Number(map.data[name]);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(REPO, dir, 'src', 'config')).Env.shape[name].parse(undefined) as number;
}

/**
 * The connections a process's one pool may open (`<SERVICE>_DB_POOL`): messaging's worker enlarges its pool for its
 * jobs (`workerPoolSize` in its config), and the group commit's kept connections are part of the pool.
 */
function poolOf(objects: K8sObject[], spec: { name: string; service: string; dir: string }): number {
  const pool = setting(objects, spec.name, spec.dir, `${spec.service.toUpperCase()}_DB_POOL`);
  if (spec.name !== 'messaging-worker') return pool;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require(join(REPO, spec.dir, 'src', 'config')) as {
    workerPoolSize(db: { poolSize: number; sendLanes: number }, concurrency: number): number;
  };
  const sendLanes = setting(objects, spec.name, spec.dir, 'MESSAGING_SEND_LANES');
  const concurrency = setting(objects, spec.name, spec.dir, 'MESSAGING_SCHEDULED_CONCURRENCY');
  return config.workerPoolSize({ poolSize: pool, sendLanes }, concurrency);
}

describe('infra/k8s/data/pgbouncer', () => {
  const objects = kustomizeBuild(PGBOUNCER);

  it('is valid against the Kubernetes schemas: a Deployment, its Service, PDB, configuration and users', () => {
    expect(schemaErrors(objects)).toEqual([]);
    expect(unknownFieldErrors(objects)).toEqual([]);
    expect(objects.map((o) => o.kind).sort()).toEqual(
      ['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Secret', 'Service'].sort(),
    );
  });

  it('pools in transaction mode, one pool per service database', () => {
    const { settings, pools } = ini();
    expect(settings.pool_mode).toBe('transaction');
    const databases = plannedProcesses()
      .filter((p) => p.databaseEnv)
      .map((p) => `confab_${p.service}`);
    expect(Object.keys(pools).sort()).toEqual([...new Set(databases)].sort());
  });

  it('accepts every client the production overlay can open at its maximum replicas (the sizing rule)', () => {
    const copy = workingCopy();
    try {
      const production = kustomizeBuild(join(copy.dir, 'overlays', 'production'));
      let clients = 0;
      for (const spec of plannedProcesses().filter((p) => p.databaseEnv)) {
        const hpa = find(production, 'HorizontalPodAutoscaler', spec.name)!;
        clients += hpa.spec.maxReplicas * (poolOf(production, spec) + 1);
      }
      expect(clients).toBe(588);
      const { settings, pools } = ini();
      expect(Number(settings.max_client_conn)).toBeGreaterThanOrEqual(clients);
      // Server connections of both replicas, their reserve and 20 direct sessions stay under max_connections 200.
      const servers = Object.values(pools).reduce((a, b) => a + b, 0) + Number(settings.reserve_pool_size);
      expect(2 * servers + 20).toBeLessThan(200);
    } finally {
      copy.remove();
    }
  });
});
