import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plannedProcesses, type ProcessSpec } from '../../libs/devkit/src/catalog';
import {
  byKind,
  describeObject,
  find,
  findGenerated,
  kustomizeBuild,
  schemaErrors,
  secretValue,
  unknownFieldErrors,
  workingCopy,
  type K8sObject,
} from './manifests';

const REPO = join(__dirname, '..', '..');
/** closeOnSignals' shutdown budget (libs/http/src/process.ts), read from the source so a change there shows here. */
const SHUTDOWN_BUDGET_SECONDS =
  Number(
    /budgetMs = ([\d_]+)/.exec(readFileSync(join(REPO, 'libs/http/src/process.ts'), 'utf8'))![1]!.replace(/_/g, ''),
  ) / 1000;
const COMMON_SECRETS = ['REDIS_URL', 'AMQP_URL'];
/** The Secret in no manifest, created once per cluster with kubectl (docs/security.md), and what it holds. */
const INTERNAL_SECRET = 'confab-internal';
const INTERNAL_KEYS = ['CONFAB_INTERNAL_SECRET', 'CONFAB_INTERNAL_SECRET_PREVIOUS'];
/** Keys of confab-internal that only some processes read: the upload URL key (messaging's config), the key sealing
 * stored meeting provider tokens (settings' config). */
const PROCESS_KEYS: Record<string, string[]> = {
  CONFAB_UPLOAD_URL_KEY: ['messaging', 'messaging-worker'],
  CONFAB_MEETING_TOKEN_KEY: ['settings'],
};
/** The processes that send mail, each reading the optional CONFAB_SMTP_URL of confab-secrets. */
const MAIL_SENDERS = ['settings', 'push', 'push-worker'];
/** The company sign-in secrets (docs/security.md), optional keys of confab-secrets read by the settings service. */
const SIGN_IN_SECRETS = [
  'CONFAB_LDAP_BIND_PASSWORD',
  'CONFAB_OIDC_PROVIDERS',
  'CONFAB_SAML_SP_KEY',
  'CONFAB_SAML_SP_CERT',
  'CONFAB_SAML_IDPS',
  'CONFAB_SCIM_TOKENS',
];
const KEPT_BY_KUBECTL = [...INTERNAL_KEYS, ...Object.keys(PROCESS_KEYS)];
const METRICS_PORT = 9400;
const HTTP = plannedProcesses().filter((p) => p.portEnv);
const WORKERS = plannedProcesses().filter((p) => !p.portEnv);
const DATABASE_VARS = [...new Set(plannedProcesses().flatMap((p) => (p.databaseEnv ? [p.databaseEnv] : [])))];

let copy: ReturnType<typeof workingCopy>;
const renders: Record<'base' | 'production', K8sObject[]> = { base: [], production: [] };

beforeAll(() => {
  copy = workingCopy();
  renders.base = kustomizeBuild(join(copy.dir, 'base'));
  renders.production = kustomizeBuild(join(copy.dir, 'overlays', 'production'));
});
afterAll(() => copy.remove());

/** The env schema (`Env` of src/config.ts) of the package a process runs from: what that process reads. */
const schemaOf = (spec: ProcessSpec): Record<string, { safeParse(v: unknown): { success: boolean } }> =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(REPO, spec.dir, 'src', 'config')).Env.shape;

const podSpec = (d: K8sObject) => d.spec.template.spec;
const mainContainer = (d: K8sObject) => podSpec(d).containers[0];
const allContainers = (d: K8sObject): any[] => [...(podSpec(d).initContainers ?? []), ...podSpec(d).containers];
const secretRefs = (container: any): Record<string, any> =>
  Object.fromEntries(
    (container.env ?? [])
      .filter((e: any) => e.valueFrom?.secretKeyRef)
      .map((e: any) => [e.name, e.valueFrom.secretKeyRef]),
  );

/** The environment a container gets from its ConfigMaps, merged in envFrom order. */
function configEnv(objects: K8sObject[], container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const map = find(objects, 'ConfigMap', source.configMapRef.name);
    if (map) Object.assign(env, map.data);
  }
  return env;
}

function deployment(objects: K8sObject[], spec: ProcessSpec): K8sObject {
  const found = find(objects, 'Deployment', spec.name);
  if (!found) throw new Error(`no Deployment ${spec.name}`);
  return found;
}

const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('infra/k8s against the Kubernetes schemas (kubernetes-models)', () => {
  it.each(['base', 'production'] as const)('every object of %s is valid, of a known apiVersion and kind', (which) => {
    expect(renders[which].length).toBeGreaterThan(40);
    expect(schemaErrors(renders[which])).toEqual([]);
  });

  it('no object of either has a field the schemas do not define', () => {
    expect(unknownFieldErrors([...renders.base, ...renders.production])).toEqual([]);
  });

  it('the validation fails on wrong types, unknown kinds and unknown fields', () => {
    const broken = structuredClone(find(renders.production, 'Deployment', 'settings')!);
    mainContainer(broken).ports[0].containerPort = 'http';
    expect(schemaErrors([broken]).join()).toMatch(/containerPort must be integer/);
    expect(schemaErrors([{ ...broken, kind: 'Deploymnet' }]).join()).toMatch(/kind unknown/);
    expect(schemaErrors([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }])).toHaveLength(1);
    const misspelt = structuredClone(find(renders.production, 'Deployment', 'settings')!);
    mainContainer(misspelt).readinesProbe = mainContainer(misspelt).readinessProbe;
    expect(unknownFieldErrors([misspelt]).join()).toMatch(/readinesProbe/);
  });
});

describe.each(['base', 'production'] as const)('infra/k8s %s', (which) => {
  const objects = () => renders[which];

  it('has one Deployment per process of the catalog, running its entry point, and no other', () => {
    expect(
      byKind(objects(), 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(
      plannedProcesses()
        .map((p) => p.name)
        .sort(),
    );
    for (const spec of plannedProcesses()) {
      expect(mainContainer(deployment(objects(), spec)).command).toEqual(['node', `${spec.dir}/${spec.entry}`]);
    }
  });

  it('probes HTTP processes on /readyz (readiness) and /healthz (liveness) at the port their config sets', () => {
    for (const spec of HTTP) {
      const container = mainContainer(deployment(objects(), spec));
      const port = Number(configEnv(objects(), container)[spec.portEnv!]);
      expect([spec.name, container.ports.find((p: any) => p.name === 'http')?.containerPort]).toEqual([
        spec.name,
        port,
      ]);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    }
  });

  it('probes workers, which serve no API, with exec probes of scripts/probe.mjs', () => {
    expect(WORKERS.map((w) => w.name).sort()).toEqual(['messaging-worker', 'push-worker']);
    for (const spec of WORKERS) {
      const d = deployment(objects(), spec);
      const container = mainContainer(d);
      expect(container.ports).toEqual([{ name: 'metrics', containerPort: METRICS_PORT }]);
      expect(container.readinessProbe.exec.command.slice(0, 3)).toEqual(['node', 'scripts/probe.mjs', 'reach']);
      expect(container.livenessProbe.exec.command).toEqual(['node', 'scripts/probe.mjs', 'connected', 'REDIS_URL']);
    }
  });

  it('scrapes every process on its internal metrics port, which no Service exposes', () => {
    for (const spec of plannedProcesses()) {
      const d = deployment(objects(), spec);
      const container = mainContainer(d);
      const env = configEnv(objects(), container);
      expect([spec.name, env.CONFAB_METRICS_PORT, env.CONFAB_METRICS_HOST]).toEqual([
        spec.name,
        String(METRICS_PORT),
        '0.0.0.0',
      ]);
      expect([spec.name, container.ports]).toEqual([
        spec.name,
        expect.arrayContaining([{ name: 'metrics', containerPort: METRICS_PORT }]),
      ]);
      expect([spec.name, d.spec.template.metadata.annotations]).toEqual([
        spec.name,
        expect.objectContaining({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(METRICS_PORT),
          'prometheus.io/path': '/metrics',
        }),
      ]);
      const service = find(objects(), 'Service', spec.name);
      for (const port of service?.spec.ports ?? [])
        expect([spec.name, port.targetPort, port.port]).not.toEqual([spec.name, 'metrics', expect.anything()]);
    }
  });

  it('lets only Confab pods reach service ports, anyone the gateway, and only monitoring the metrics', () => {
    const policies = byKind(objects(), 'NetworkPolicy');
    const podsOf = (policy: K8sObject) =>
      plannedProcesses().filter((spec) => {
        const labels = deployment(objects(), spec).spec.template.metadata.labels;
        const selector = policy.spec.podSelector;
        const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
        const byExpressions = (selector.matchExpressions ?? []).every(
          (e: any) => e.operator === 'In' && e.values.includes(labels[e.key]),
        );
        return byLabels && byExpressions;
      });
    const confabNames = plannedProcesses()
      .map((p) => p.name)
      .sort();
    for (const spec of plannedProcesses()) {
      const d = deployment(objects(), spec);
      const selecting = policies.filter((p) => podsOf(p).includes(spec));
      expect([spec.name, selecting.length > 0]).toEqual([spec.name, true]);
      for (const policy of selecting) expect(policy.spec.policyTypes).toEqual(['Ingress']);
      const rules = selecting.flatMap((p) => p.spec.ingress as any[]);
      // Every container port is covered by some rule, and each rule says who may use it.
      for (const port of mainContainer(d).ports) {
        const admitting = rules.filter((r) => r.ports.some((p: any) => p.port === port.name));
        expect([spec.name, port.name, admitting.length]).toEqual([spec.name, port.name, 1]);
        const [rule] = admitting;
        if (port.name === 'metrics') {
          expect(rule.from).toEqual([
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
          ]);
        } else if (port.name === 'channel') {
          // The events service's channel: the gateway's long polls, and nobody else's requests.
          expect([spec.name, rule.from]).toEqual([
            spec.name,
            [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }],
          ]);
        } else if (spec.name === 'gateway') {
          expect(rule.from).toBeUndefined(); // the ingress controller, wherever it runs
        } else {
          expect([spec.name, rule.from]).toEqual([
            spec.name,
            [
              {
                podSelector: {
                  matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: expect.any(Array) }],
                },
              },
            ],
          ]);
          expect([...rule.from[0].podSelector.matchExpressions[0].values].sort()).toEqual(confabNames);
        }
      }
    }
  });

  it('gives every container requests and limits, runs it as non-root, and drains before the shutdown budget ends', () => {
    for (const d of byKind(objects(), 'Deployment')) {
      const pod = podSpec(d);
      expect([d.metadata.name, pod.securityContext.runAsNonRoot, pod.securityContext.runAsUser > 0]).toEqual([
        d.metadata.name,
        true,
        true,
      ]);
      for (const c of allContainers(d)) {
        expect([
          d.metadata.name,
          c.name,
          Object.keys(c.resources.requests).sort(),
          Object.keys(c.resources.limits).sort(),
        ]).toEqual([d.metadata.name, c.name, ['cpu', 'memory'], ['cpu', 'memory']]);
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
        expect(c.securityContext.capabilities.drop).toContain('ALL');
      }
      const preStop = mainContainer(d).lifecycle.preStop.exec.command;
      expect(preStop[0]).toBe('sleep');
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(preStop[1]) + SHUTDOWN_BUDGET_SECONDS);
    }
  });

  it('gives every HTTP process a Service, and every process an HPA and a PDB that select its pods', () => {
    for (const spec of plannedProcesses()) {
      const d = deployment(objects(), spec);
      const labels = d.spec.template.metadata.labels;
      const service = find(objects(), 'Service', spec.name);
      if (spec.portEnv) {
        expect([spec.name, service && selects(service.spec.selector, labels)]).toEqual([spec.name, true]);
        const channelPort = mainContainer(d).ports.find((p: any) => p.name === 'channel')?.containerPort;
        expect(service!.spec.ports).toEqual([
          expect.objectContaining({ name: 'http', targetPort: 'http', port: mainContainer(d).ports[0].containerPort }),
          // A second listener (the events service's channel) has a Service port of its own, where its config says.
          ...(spec.channel ? [{ name: 'channel', targetPort: 'channel', port: channelPort }] : []),
        ]);
        if (spec.channel) {
          const gateway = mainContainer(
            deployment(
              objects(),
              plannedProcesses().find((g) => g.name === 'gateway')!,
            ),
          );
          expect(String(configEnv(objects(), mainContainer(d))[spec.channel.portEnv])).toBe(String(channelPort));
          expect(configEnv(objects(), gateway)[spec.channel.urlEnv]).toBe(`tcp://${spec.name}:${channelPort}`);
        }
      } else {
        expect([spec.name, service]).toEqual([spec.name, undefined]);
      }
      const hpa = find(objects(), 'HorizontalPodAutoscaler', spec.name);
      expect(hpa?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: spec.name });
      expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(spec.portEnv ? 2 : 1);
      expect(hpa!.spec.maxReplicas).toBeGreaterThan(hpa!.spec.minReplicas);
      expect(d.spec.replicas).toBeUndefined(); // the HPA owns the count; an apply would reset it
      const pdb = find(objects(), 'PodDisruptionBudget', spec.name);
      expect([spec.name, pdb && selects(pdb.spec.selector.matchLabels, labels)]).toEqual([spec.name, true]);
      expect(pdb!.spec.maxUnavailable ?? hpa!.spec.minReplicas - pdb!.spec.minAvailable).toBeGreaterThanOrEqual(1);
    }
  });

  // Keys a deployment may leave out of secrets.env: migrations' and backups' direct database addresses (only with
  // PgBouncer), the SMTP server (without it, mail is kept as files on the data volume) and the company sign-in
  // secrets (each method is off while its setting is absent).
  const OPTIONAL_SECRETS = new RegExp(`^(\\w+_DIRECT_DATABASE_URL|CONFAB_SMTP_URL|${SIGN_IN_SECRETS.join('|')})$`);

  it('takes secrets from the Secret and configuration from ConfigMaps that exist', () => {
    const secret = findGenerated(objects(), 'Secret', 'confab-secrets')!;
    const secretKeys = Object.keys(secret.data);
    expect(secretKeys.sort()).toEqual([...COMMON_SECRETS, ...DATABASE_VARS].sort());
    for (const d of [...byKind(objects(), 'Deployment'), ...byKind(objects(), 'Job')]) {
      for (const c of allContainers(d)) {
        for (const [name, ref] of Object.entries(secretRefs(c))) {
          if (KEPT_BY_KUBECTL.includes(name)) {
            // Created with kubectl, not generated: its name has no hash; only the rotation's second secret may be absent.
            expect([describeObject(d), name, ref.name, ref.key, ref.optional]).toEqual([
              describeObject(d),
              name,
              INTERNAL_SECRET,
              name,
              name === 'CONFAB_INTERNAL_SECRET_PREVIOUS' ? true : undefined,
            ]);
            continue;
          }
          expect([describeObject(d), name, ref.name, ref.key, ref.optional]).toEqual([
            describeObject(d),
            name,
            secret.metadata.name,
            name,
            OPTIONAL_SECRETS.test(name) ? true : undefined,
          ]);
        }
        for (const source of c.envFrom ?? [])
          expect([describeObject(d), find(objects(), 'ConfigMap', source.configMapRef.name)?.kind]).toEqual([
            describeObject(d),
            'ConfigMap',
          ]);
      }
    }
    for (const spec of plannedProcesses()) {
      const container = mainContainer(deployment(objects(), spec));
      const own = Object.keys(PROCESS_KEYS).filter((key) => PROCESS_KEYS[key]!.includes(spec.name));
      const common = spec.stateless ? [] : COMMON_SECRETS;
      const wanted = [...common, ...INTERNAL_KEYS, ...own, ...(spec.databaseEnv ? [spec.databaseEnv] : [])];
      if (MAIL_SENDERS.includes(spec.name)) wanted.push('CONFAB_SMTP_URL');
      if (spec.name === 'settings') wanted.push(...SIGN_IN_SECRETS);
      expect([spec.name, Object.keys(secretRefs(container)).sort()]).toEqual([spec.name, wanted.sort()]);
      for (const key of Object.keys(configEnv(objects(), container))) expect(secretKeys).not.toContain(key);
    }
  });

  it('points every service URL of the common ConfigMap at that service', () => {
    const common = findGenerated(objects(), 'ConfigMap', 'confab-common')!.data;
    for (const spec of HTTP.filter((p) => p.urlEnv)) {
      const port = find(objects(), 'Service', spec.name)!.spec.ports[0].port;
      expect(common[spec.urlEnv!]).toBe(`http://${spec.name}:${port}`);
    }
  });

  it('migrates in a Job, and holds each process with a database until its migrations are applied', () => {
    const job = find(objects(), 'Job', 'confab-migrate');
    expect(job?.spec.template.spec.containers[0].command).toEqual(['node', 'scripts/migrate.mjs', 'deploy']);
    // Each database's URL, and its direct address where the services go through PgBouncer (optional: the migration
    // uses it when the Secret has it).
    const direct = (name: string) => name.replace(/_DATABASE_URL$/, '_DIRECT_DATABASE_URL');
    const jobRefs = secretRefs(job!.spec.template.spec.containers[0]);
    expect(Object.keys(jobRefs).sort()).toEqual([...DATABASE_VARS, ...DATABASE_VARS.map(direct)].sort());
    for (const name of DATABASE_VARS) expect([name, jobRefs[direct(name)].optional]).toEqual([name, true]);
    for (const spec of plannedProcesses()) {
      const d = deployment(objects(), spec);
      const init = (podSpec(d).initContainers ?? []) as any[];
      if (!spec.databaseEnv) {
        expect([spec.name, init]).toEqual([spec.name, []]);
        continue;
      }
      expect([spec.name, init.map((c) => c.command)]).toEqual([
        spec.name,
        [['node', 'scripts/migrate.mjs', 'wait', spec.service]],
      ]);
      const initRefs = secretRefs(init[0]);
      expect([spec.name, Object.keys(initRefs)]).toEqual([spec.name, [spec.databaseEnv, direct(spec.databaseEnv)]]);
      expect(initRefs[direct(spec.databaseEnv)].optional).toBe(true);
      expect(init[0].image).toBe(mainContainer(d).image);
    }
  });

  it('mounts the shared ReadWriteMany data claim at /data in every process that writes files', () => {
    // The processes that write files are those whose config reads CONFAB_DATA_DIR: messaging stores uploads (its
    // worker deletes unclaimed ones), settings stores custom emoji images and captured mail, push and its worker
    // captured missed-message email.
    const writers = plannedProcesses()
      .filter((spec) => 'CONFAB_DATA_DIR' in schemaOf(spec))
      .map((spec) => spec.name);
    expect(writers.sort()).toEqual(['messaging', 'messaging-worker', 'push', 'push-worker', 'settings']);
    for (const spec of plannedProcesses()) {
      const d = deployment(objects(), spec);
      const mount = (mainContainer(d).volumeMounts ?? []).find((m: any) => m.mountPath === '/data');
      const volume = (podSpec(d).volumes ?? []).find((v: any) => v.name === mount?.name);
      expect([spec.name, volume?.persistentVolumeClaim?.claimName]).toEqual([
        spec.name,
        writers.includes(spec.name) ? 'confab-data' : undefined,
      ]);
    }
    const claim = find(objects(), 'PersistentVolumeClaim', 'confab-data');
    expect(claim?.spec.accessModes).toEqual(['ReadWriteMany']);
  });

  it('runs one image, and only scripts that exist', () => {
    const images = new Set<string>();
    for (const d of [...byKind(objects(), 'Deployment'), ...byKind(objects(), 'Job')]) {
      const pod = d.spec.template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        images.add(c.image);
        const probes = [c.readinessProbe, c.livenessProbe].map((p) => p?.exec?.command ?? []);
        for (const argument of [c.command, ...probes].flat().filter((a: string) => a.startsWith('scripts/')))
          expect([argument, existsSync(join(REPO, argument))]).toEqual([argument, true]);
      }
    }
    expect(images.size).toBe(1);
  });
});

describe('infra/k8s production overlay', () => {
  const objects = () => renders.production;

  it('renders only with secrets.env, whose values replace every placeholder of the base', () => {
    const bare = workingCopy(false);
    try {
      expect(() => kustomizeBuild(join(bare.dir, 'overlays', 'production'))).toThrow(/secrets\.env/);
    } finally {
      bare.remove();
    }
    const example = readFileSync(join(copy.dir, 'overlays/production/secrets.env.example'), 'utf8');
    const expected = Object.fromEntries(
      example
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const secret = findGenerated(objects(), 'Secret', 'confab-secrets')!;
    for (const key of Object.keys(secret.data)) expect([key, secretValue(secret, key)]).toEqual([key, expected[key]]);
    const baseSecret = findGenerated(renders.base, 'Secret', 'confab-secrets')!;
    expect(secretValue(baseSecret, 'REDIS_URL')).toMatch(/placeholder/);
  });

  it('carries no internal secret or key, not even a placeholder: confab-internal is created with kubectl', () => {
    for (const which of ['base', 'production'] as const) {
      expect(renders[which].filter((o) => o.kind === 'Secret' && o.metadata.name.startsWith(INTERNAL_SECRET))).toEqual(
        [],
      );
      for (const secret of byKind(renders[which], 'Secret'))
        for (const key of KEPT_BY_KUBECTL) expect(Object.keys(secret.data)).not.toContain(key);
      for (const map of byKind(renders[which], 'ConfigMap'))
        expect(Object.keys(map.data).filter((k) => /SECRET|_KEY$/.test(k))).toEqual([]);
    }
    const readme = readFileSync(join(REPO, 'infra/k8s/README.md'), 'utf8');
    expect(readme).toMatch(/kubectl create secret generic confab-internal/);
    for (const key of Object.keys(PROCESS_KEYS)) expect(readme).toMatch(`--from-literal=${key}=`);
  });

  it('puts every object in the confab namespace, with a pinned image', () => {
    expect(find(objects(), 'Namespace', 'confab')).toBeDefined();
    for (const o of objects().filter((o) => o.kind !== 'Namespace'))
      expect([describeObject(o), o.metadata.namespace]).toEqual([describeObject(o), 'confab']);
    for (const d of byKind(objects(), 'Deployment'))
      expect(mainContainer(d).image).toMatch(/^[^:]+\/[^:]+:(?!latest$)[\w.-]+$/);
  });

  it('serves the gateway behind an Ingress on its external address', () => {
    const ingress = find(objects(), 'Ingress', 'gateway')!;
    const service = find(objects(), 'Service', 'gateway')!;
    const external = new URL(findGenerated(objects(), 'ConfigMap', 'confab-common')!.data.CONFAB_EXTERNAL_URL);
    expect(external.protocol).toBe('https:');
    expect(ingress.spec.rules.map((r: any) => r.host)).toEqual([external.hostname, `*.${external.hostname}`]);
    for (const rule of ingress.spec.rules) {
      const backend = rule.http.paths[0].backend.service;
      expect(backend.name).toBe(service.metadata.name);
      expect(service.spec.ports.map((p: any) => p.name)).toContain(backend.port.name);
    }
    expect(ingress.spec.tls[0].hosts).toEqual(ingress.spec.rules.map((r: any) => r.host));
    expect(findGenerated(objects(), 'ConfigMap', 'confab-gateway')!.data.CONFAB_TRUST_PROXY).toBe('1');
  });
});

describe('infra/k8s environment against what each process reads', () => {
  // Read by Node itself: the catalog's V8 flags.
  const READ_BY_NODE = ['NODE_OPTIONS'];

  /** A container's variables, except those of the ConfigMap every process shares. */
  function ownEnv(container: any): Record<string, string> {
    const env: Record<string, string> = {};
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef.name.startsWith('confab-common')) continue;
      Object.assign(env, find(renders.base, 'ConfigMap', source.configMapRef.name)?.data);
    }
    for (const e of container.env ?? []) env[e.name] = e.value ?? 'from-secret';
    return env;
  }

  it('sets on each process only variables it reads, and every variable it requires', () => {
    for (const spec of plannedProcesses()) {
      const shape = schemaOf(spec);
      const container = mainContainer(deployment(renders.base, spec));
      const own = ownEnv(container);
      expect([spec.name, Object.keys(own).filter((name) => !(name in shape) && !READ_BY_NODE.includes(name))]).toEqual([
        spec.name,
        [],
      ]);
      const all = configEnv(renders.base, container);
      for (const e of container.env ?? []) all[e.name] = 'set';
      const required = Object.keys(shape).filter((name) => !shape[name]!.safeParse(undefined).success);
      expect([spec.name, required.filter((name) => !(name in all))]).toEqual([spec.name, []]);
    }
  });

  it('shares only variables that some process reads', () => {
    const common = findGenerated(renders.base, 'ConfigMap', 'confab-common')!.data;
    const read = new Set(plannedProcesses().flatMap((spec) => Object.keys(schemaOf(spec))));
    expect(Object.keys(common).filter((name) => !read.has(name) && !READ_BY_NODE.includes(name))).toEqual([]);
  });
});
