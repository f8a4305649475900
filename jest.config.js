// Three tiers (docs/architecture.md): unit specs need nothing running; integration specs (*.int.spec.ts) use the real
// Postgres, Redis and RabbitMQ; the e2e suite starts the whole system and talks to it through the gateway.
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const moduleNameMapper = {
  '^@confab/(config|devkit|errors|events|http|identity|integrations|logging|markdown|porting|runtime|zulip)$': '<rootDir>/libs/$1/src',
  '^@confab/integrations/catalog$': '<rootDir>/libs/integrations/src/catalog',
};
const ignore = ['/node_modules/', '/dist/'];
// Sources import './x.js' (Node16 ESM-style specifiers); the resolver finds the .ts file behind it.
const resolver = '<rootDir>/jest.resolver.js';
const common = { transform, moduleNameMapper, resolver, testPathIgnorePatterns: ignore, testEnvironment: 'node' };
// Files about the one-machine deployment the e2e suite starts itself (where its processes listen): a run against a
// deployment started elsewhere (CONFAB_TEST_STATE: the three hosts of `npm run test:ha -- e2e`, README) leaves them
// out. Every other file runs there too; `npm test` runs them all.
const OWN_DEPLOYMENT = ['deployment_listeners'];
const e2eIgnore = process.env.CONFAB_TEST_STATE
  ? [...ignore, ...OWN_DEPLOYMENT.map((name) => `/tests/e2e/${name}\\.e2e\\.spec\\.ts$`)]
  : ignore;

/** @type {import('jest').Config} */
module.exports = {
  // Jest reads the timeout globally, not per project: integration and e2e hooks start databases and processes.
  testTimeout: 60_000,
  // Known-long files first on a fresh clone (jest.sequencer.js).
  testSequencer: '<rootDir>/jest.sequencer.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services,gateway,infra}/**/*.spec.ts', '<rootDir>/web/test/*.spec.ts'],
      testPathIgnorePatterns: [...ignore, '\\.int\\.spec\\.ts$'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services,gateway}/**/*.int.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/*.e2e.spec.ts'],
      testPathIgnorePatterns: e2eIgnore,
      globalSetup: '<rootDir>/tests/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/tests/e2e/support/global-teardown.ts',
    },
    // The container paths (docker compose, the Confab image): only under `npm run test:containers`, which makes a
    // Docker engine and the images available first (scripts/test-containers.mjs).
    ...(process.env.CONFAB_CONTAINER_TESTS
      ? [{ ...common, displayName: 'containers', testMatch: ['<rootDir>/tests/containers/*.spec.ts'] }]
      : []),
    {
      // Each fault test starts a system of its own (with private PostgreSQL/Redis/RabbitMQ where it breaks them).
      ...common,
      displayName: 'faults',
      testMatch: ['<rootDir>/tests/e2e/faults/*.faults.spec.ts'],
    },
  ],
};
