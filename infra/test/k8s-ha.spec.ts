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

const HA = join(K8S_DIR, 'data', 'ha');
/** The operators' kinds: their CRD schemas are not in kubernetes-models, so their fields are checked here. */
const OPERATOR_KINDS = [
  'postgresql.cnpg.io/v1 Cluster',
  'postgresql.cnpg.io/v1 ScheduledBackup',
  'rabbitmq.com/v1beta1 RabbitmqCluster',
  'databases.spotahome.com/v1 RedisFailover',
];
const kindOf = (o: K8sObject) => `${o.apiVersion} ${o.kind}`;

/** A required anti-affinity term over nodes that selects `labels`. */
function spreadsOverNodes(affinity: any, labels: Record<string, string>): boolean {
  const terms: any[] = affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.some(
    (t) =>
      t.topologyKey === 'kubernetes.io/hostname' &&
      Object.entries(labels).every(([k, v]) => t.labelSelector?.matchLabels?.[k] === v),
  );
}

describe('infra/k8s/data/ha: PostgreSQL, RabbitMQ and Redis as replicated sets that survive a node', () => {
  const objects = kustomizeBuild(HA);
  const operated = objects.filter((o) => OPERATOR_KINDS.includes(kindOf(o)));
  const core = objects.filter((o) => !OPERATOR_KINDS.includes(kindOf(o)));

  it('holds the three operators’ sets and valid core objects, all in confab-data', () => {
    expect(operated.map(kindOf).sort()).toEqual([...OPERATOR_KINDS].sort());
    expect(schemaErrors(core)).toEqual([]);
    expect(unknownFieldErrors(core)).toEqual([]);
    expect(objects.every((o) => o.metadata.namespace === 'confab-data')).toBe(true);
  });

  it('runs PostgreSQL as three instances on three nodes with a synchronous standby, WAL archived and backed up daily', () => {
    const pg = find(objects, 'Cluster', 'confab-pg')!;
    expect(pg.spec.instances).toBe(3);
    expect(pg.spec.minSyncReplicas).toBeGreaterThanOrEqual(1);
    expect(pg.spec.maxSyncReplicas).toBeGreaterThanOrEqual(pg.spec.minSyncReplicas);
    expect(pg.spec.affinity).toMatchObject({
      enablePodAntiAffinity: true,
      podAntiAffinityType: 'required',
      topologyKey: 'kubernetes.io/hostname',
    });
    expect(pg.spec.backup.barmanObjectStore.destinationPath).toMatch(/^s3:\/\//);
    expect(pg.spec.backup.barmanObjectStore.wal).toBeDefined();
    const backup = find(objects, 'ScheduledBackup', 'confab-pg-daily')!;
    expect(backup.spec.cluster.name).toBe('confab-pg');
    // Room for every client the production overlay opens at its maximum replicas (k8s-data.spec.ts: 588) and 20
    // direct sessions (migrations, backups, monitoring).
    expect(Number(pg.spec.postgresql.parameters.max_connections)).toBeGreaterThan(588 + 20);
  });

  it('runs RabbitMQ as three nodes on three nodes, pausing a minority, with a PodDisruptionBudget of one', () => {
    const rabbit = find(objects, 'RabbitmqCluster', 'confab-rabbitmq')!;
    expect(rabbit.spec.replicas).toBe(3);
    expect(rabbit.spec.rabbitmq.additionalConfig).toMatch(/cluster_partition_handling = pause_minority/);
    expect(spreadsOverNodes(rabbit.spec.affinity, { 'app.kubernetes.io/name': 'confab-rabbitmq' })).toBe(true);
    const pdb = find(objects, 'PodDisruptionBudget', 'confab-rabbitmq')!;
    expect(pdb.spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'confab-rabbitmq' } },
    });
  });

  it('runs Redis as a master and two replicas with three sentinels, each set on three nodes', () => {
    const redis = find(objects, 'RedisFailover', 'confab-redis')!;
    expect(redis.spec.redis.replicas).toBe(3);
    expect(redis.spec.sentinel.replicas).toBe(3);
    expect(redis.spec.redis.customConfig).toContain('min-replicas-to-write 1');
    for (const component of ['redis', 'sentinel'])
      expect(
        spreadsOverNodes(redis.spec[component].affinity, {
          'app.kubernetes.io/name': 'confab-redis',
          'app.kubernetes.io/component': component,
        }),
      ).toBe(true);
  });
});

describe('infra/k8s production overlay on the replicated data sets', () => {
  let production: K8sObject[];
  let secrets: string;
  beforeAll(() => {
    const copy = workingCopy();
    try {
      production = kustomizeBuild(join(copy.dir, 'overlays', 'production'));
    } finally {
      copy.remove();
    }
    secrets = readFileSync(join(K8S_DIR, 'overlays', 'production', 'secrets.env.example'), 'utf8');
  });

  it('spreads the replicas of every process over nodes (anti-affinity on its own pods) and keeps a PDB for each', () => {
    for (const spec of plannedProcesses()) {
      const deployment = find(production, 'Deployment', spec.name)!;
      const terms: any[] =
        deployment.spec.template.spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
      expect({
        process: spec.name,
        spread: terms.some(
          (t) =>
            t.podAffinityTerm.topologyKey === 'kubernetes.io/hostname' &&
            t.podAffinityTerm.labelSelector.matchLabels['app.kubernetes.io/name'] === spec.name,
        ),
      }).toEqual({ process: spec.name, spread: true });
      const pdb = find(production, 'PodDisruptionBudget', spec.name)!;
      expect(pdb.spec.selector.matchLabels['app.kubernetes.io/name']).toBe(spec.name);
    }
  });

  it('points every process at those sets: Redis through its sentinels, RabbitMQ’s Service, the read-write PostgreSQL', () => {
    const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(secrets)?.[1];
    expect(value('REDIS_URL')).toMatch(/^redis\+sentinel:\/\/.*@rfs-confab-redis\.confab-data\.svc:26379\/mymaster$/);
    expect(value('AMQP_URL')).toMatch(/@confab-rabbitmq\.confab-data\.svc:5672$/);
    for (const spec of plannedProcesses().filter((p) => p.databaseEnv))
      expect(value(spec.databaseEnv!)).toMatch(/@confab-pg-rw\.confab-data\.svc:5432\//);
    const common = readFileSync(join(K8S_DIR, 'base', 'config', 'common.env'), 'utf8');
    expect(common).toMatch(/^CONFAB_EVENTS_QUEUE_TYPE=quorum$/m);
  });
});
