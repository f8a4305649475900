import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { commonEnv } from '../../libs/config/src';
import { NODE_FLAGS, plannedProcesses } from '../../libs/devkit/src/catalog';

// No Docker engine runs here: these are static checks of docker-compose.yml and the Dockerfile.
const REPO = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any> };
const services = compose.services;
const APP = [...plannedProcesses().map((p) => p.name), 'secrets', 'migrate', 'seed'];
/** Variables of commonEnv with neither a value nor a default unless set (a secret's `_FILE` form, a rotation's). */
const OPTIONAL = Object.entries(commonEnv)
  .filter(([, schema]) => {
    const parsed = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(undefined);
    return parsed.success && parsed.data === undefined;
  })
  .map(([key]) => key);
const DATABASE_SPECS = plannedProcesses().filter((p) => p.databaseEnv);
const serviceUrl = (name: string) => {
  const spec = plannedProcesses().find((p) => p.name === name)!;
  return `http://${spec.name}:${spec.devPort}`;
};

describe('Dockerfile', () => {
  it('runs every process with the V8 flags the catalog starts them with', () => {
    const runtime = read('Dockerfile')
      .split(/^FROM /m)
      .at(-1)!;
    expect(/^ENV NODE_OPTIONS=(.*)$/m.exec(runtime)?.[1]).toBe(NODE_FLAGS.join(' '));
  });

  it('leaves /app read-only to the process user, who writes under CONFAB_DATA_DIR, a volume it owns', () => {
    const runtime = read('Dockerfile')
      .split(/^FROM /m)
      .at(-1)!;
    expect(/^ENV CONFAB_DATA_DIR=(.*)$/m.exec(runtime)?.[1]).toBe('/data');
    expect(runtime).toMatch(/^RUN mkdir -p \/data && chown 1000:1000 \/data$/m);
    expect(runtime).toMatch(/^VOLUME \/data$/m);
    // The ownership is set before the image switches to the unprivileged user.
    expect(runtime.indexOf('chown 1000:1000 /data')).toBeLessThan(runtime.indexOf('USER node'));
  });
});

describe('docker-compose.yml', () => {
  it('runs every process of the catalog from the one image, by name', () => {
    for (const spec of plannedProcesses()) {
      expect([spec.name, services[spec.name]?.command]).toEqual([
        spec.name,
        ['node', 'scripts/run-process.mjs', spec.name],
      ]);
    }
    for (const name of APP)
      expect([name, services[name].image, services[name].build]).toEqual([name, 'confab:dev', '.']);
  });

  it('mounts one data volume at CONFAB_DATA_DIR in every Confab container, whose root filesystem is read-only', () => {
    for (const name of APP) expect([name, services[name].volumes]).toEqual([name, ['data:/data']]);
    // The same rule as Kubernetes' readOnlyRootFilesystem with a /tmp emptyDir; the compose smoke test
    // (tests/containers, `npm run test:containers`) runs every process this way.
    for (const name of APP)
      expect([name, services[name].read_only, services[name].tmpfs]).toEqual([name, true, ['/tmp']]);
    expect(Object.keys((compose as unknown as { volumes: Record<string, unknown> }).volumes)).toContain('data');
  });

  it('gives every process the common settings, the service URLs, development endpoints and its own port and database', () => {
    for (const spec of plannedProcesses()) {
      const env = services[spec.name].environment;
      for (const key of Object.keys(commonEnv).filter((k) => !OPTIONAL.includes(k)))
        expect([spec.name, key, env[key]]).toEqual([spec.name, key, expect.anything()]);
      expect(env.CONFAB_DEV_ENDPOINTS).toBe('1');
      for (const other of plannedProcesses().filter((p) => p.urlEnv))
        expect([spec.name, env[other.urlEnv!]]).toEqual([spec.name, serviceUrl(other.name)]);
      if (spec.portEnv) expect([spec.name, String(env[spec.portEnv])]).toEqual([spec.name, String(spec.devPort)]);
      if (spec.databaseEnv)
        expect([spec.name, env[spec.databaseEnv]]).toEqual([
          spec.name,
          expect.stringMatching(`@postgres:5432/confab_${spec.service}$`),
        ]);
    }
  });

  it('checks readiness on /readyz for HTTP processes and the Redis connection for workers', () => {
    for (const spec of plannedProcesses()) {
      const test = services[spec.name].healthcheck.test;
      const expected = spec.portEnv
        ? ['CMD', 'node', 'scripts/probe.mjs', 'http', `http://127.0.0.1:${spec.devPort}/readyz`]
        : ['CMD', 'node', 'scripts/probe.mjs', 'connected', 'REDIS_URL'];
      expect([spec.name, test]).toEqual([spec.name, expected]);
    }
    for (const name of ['postgres', 'redis', 'rabbitmq']) expect(services[name].healthcheck.test).toBeDefined();
  });

  it('creates one database per service and migrates them all before any process starts', () => {
    const sql = read('infra/compose/init-databases.sql');
    for (const spec of DATABASE_SPECS) expect(sql).toContain(`CREATE DATABASE confab_${spec.service};`);
    const migrate = services.migrate;
    expect(migrate.command).toEqual(['node', 'scripts/migrate.mjs', 'deploy']);
    for (const spec of DATABASE_SPECS)
      expect(migrate.environment[spec.databaseEnv!]).toBe(services[spec.name].environment[spec.databaseEnv!]);
    expect(migrate.depends_on.postgres.condition).toBe('service_healthy');
    // The gateway and the stateless processes (no database) do not wait for the migrations.
    for (const spec of plannedProcesses().filter((p) => p.name !== 'gateway' && !p.stateless))
      expect([spec.name, services[spec.name].depends_on.migrate]).toEqual([
        spec.name,
        { condition: 'service_completed_successfully' },
      ]);
  });

  it('publishes the gateway on 9991 and seeds the development organization once it is healthy', () => {
    expect(services.gateway.ports).toEqual(['127.0.0.1:${CONFAB_HOST_PORT:-9991}:9991']);
    expect(services.gateway.depends_on.settings.condition).toBe('service_healthy');
    const seed = services.seed;
    expect(seed.command).toEqual(['node', 'scripts/seed-dev.mjs']);
    expect(seed.depends_on.gateway.condition).toBe('service_healthy');
    expect(seed.environment.CONFAB_GATEWAY_URL).toBe(serviceUrl('gateway'));
    expect(seed.environment.CONFAB_INTERNAL_SECRET_FILE).toBe(
      services.settings.environment.CONFAB_INTERNAL_SECRET_FILE,
    );
    expect(seed.restart).toBe('no');
  });

  it('generates the secrets into the data volume before any process starts, and has no default secret', () => {
    expect(OPTIONAL).toEqual(
      expect.arrayContaining(['CONFAB_INTERNAL_SECRET_FILE', 'CONFAB_INTERNAL_SECRET_PREVIOUS']),
    );
    const secrets = services.secrets;
    expect(secrets.command).toEqual(['node', 'scripts/generate-secrets.mjs', '/data/secrets']);
    expect(secrets.restart).toBe('no');
    for (const spec of plannedProcesses()) {
      const env = services[spec.name].environment;
      expect([spec.name, env.CONFAB_INTERNAL_SECRET_FILE, env.CONFAB_INTERNAL_SECRET]).toEqual([
        spec.name,
        '/data/secrets/internal_secret',
        '${CONFAB_INTERNAL_SECRET:-}',
      ]);
      expect([spec.name, services[spec.name].depends_on.secrets]).toEqual([
        spec.name,
        { condition: 'service_completed_successfully' },
      ]);
    }
    for (const name of ['messaging', 'messaging-worker'])
      expect(services[name].environment.CONFAB_UPLOAD_URL_KEY_FILE).toBe('/data/secrets/upload_url_key');
    expect(services.settings.environment.CONFAB_MEETING_TOKEN_KEY_FILE).toBe('/data/secrets/meeting_token_key');
    // The processes check those secrets as in production: a missing, short or published one is refused.
    for (const spec of plannedProcesses())
      expect([spec.name, services[spec.name].environment.NODE_ENV]).toEqual([spec.name, 'production']);
    expect(read('docker-compose.yml')).not.toMatch(/internal-secret|INTERNAL_SECRET:-[^}]/);
  });

  it('publishes only the gateway, and serves metrics on an internal port of each container', () => {
    for (const spec of plannedProcesses()) {
      const service = services[spec.name];
      expect([spec.name, service.ports]).toEqual([spec.name, spec.name === 'gateway' ? expect.any(Array) : undefined]);
      expect([spec.name, service.environment.CONFAB_METRICS_PORT]).toEqual([spec.name, '9400']);
    }
  });

  it('uses the credentials the infrastructure containers are started with', () => {
    const { POSTGRES_USER, POSTGRES_PASSWORD } = services.postgres.environment;
    const { RABBITMQ_DEFAULT_USER, RABBITMQ_DEFAULT_PASS } = services.rabbitmq.environment;
    for (const spec of DATABASE_SPECS)
      expect(services[spec.name].environment[spec.databaseEnv!]).toMatch(
        `postgresql://${POSTGRES_USER}:${POSTGRES_PASSWORD}@`,
      );
    expect(services.settings.environment.AMQP_URL).toBe(
      `amqp://${RABBITMQ_DEFAULT_USER}:${RABBITMQ_DEFAULT_PASS}@rabbitmq:5672`,
    );
    expect(services.settings.environment.REDIS_URL).toBe('redis://redis:6379');
  });

  it('runs only scripts that exist', () => {
    for (const name of APP) {
      const script = services[name].command[1];
      expect([name, existsSync(join(REPO, script))]).toEqual([name, true]);
    }
  });
});

describe('Dockerfile', () => {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const finalStage = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));

  it('builds on Node 20 and runs the final stage as a non-root user', () => {
    expect(lines.find((l) => l.startsWith('ARG NODE_IMAGE='))).toMatch(/^ARG NODE_IMAGE=node:20[-.\w]*$/);
    expect(lines.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
    const user = finalStage.filter((l) => l.startsWith('USER ')).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)\b/);
  });

  it("carries pg_dump and pg_restore for the admin CLI's backup, of the major version compose's PostgreSQL runs", () => {
    const install = finalStage.find((l) => l.startsWith('RUN ') && /apt-get install/.test(l));
    expect(install).toMatch(/--no-install-recommends postgresql-client\b/);
    expect(install).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    // pg_dump refuses a server of a newer major version; the final stage is Debian bookworm's (PostgreSQL 15).
    expect(lines.find((l) => l.startsWith('ARG NODE_IMAGE='))).toMatch(/bookworm/);
    expect(services.postgres.image).toBe('postgres:15-alpine');
  });

  it('installs from the lockfile with pnpm 10, generates the Prisma clients, compiles and prunes', () => {
    const run = lines.filter((l) => l.startsWith('RUN ')).join('\n');
    expect(run).toMatch(/npm install --global pnpm@10\./);
    expect(run).toMatch(/pnpm install --offline --frozen-lockfile\n/);
    expect(run).toMatch(/services\/\*\/prisma\/schema\.prisma.*prisma generate/);
    expect(run).toMatch(/tsc -b tsconfig\.json/);
    expect(run).toMatch(/pnpm install --offline --frozen-lockfile --prod/);
    // The migration step runs the prisma CLI from the image: infra/ depends on it in production.
    expect(JSON.parse(read('infra/package.json')).dependencies.prisma).toBe(
      JSON.parse(read('services/settings/package.json')).devDependencies.prisma,
    );
  });

  it('keeps installed, built and secret files out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const pattern of [
      '**/node_modules',
      '**/dist',
      '**/src/generated',
      '.git',
      'infra/k8s/overlays/*/secrets.env',
    ])
      expect(ignored).toContain(pattern);
  });
});
