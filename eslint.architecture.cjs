// The layering rules of docs/architecture.md, as ESLint configuration (spread into eslint.config.mjs, and loaded by
// its own test, infra/test/architecture.spec.ts, which lints planted violations).
const SERVICES = ['settings', 'messaging', 'groups', 'invitations', 'push', 'events', 'integrations'];
const PACKAGE = { events: '@confab/events-service', integrations: '@confab/integrations-service' };
const packageOf = (service) => PACKAGE[service] ?? `@confab/${service}`;

const DOMAIN_MESSAGE =
  'The domain declares the storage interfaces it needs and knows no HTTP; repositories implement them (docs/architecture.md).';

const domainRule = {
  files: SERVICES.map((s) => `services/${s}/src/domain/**/*.ts`),
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['**/repositories', '**/repositories/**'], message: DOMAIN_MESSAGE },
          { group: ['**/generated/**', '@prisma/*', 'pg', 'ioredis', 'amqplib', 'bullmq'], message: DOMAIN_MESSAGE },
          { group: ['@confab/http', 'express'], message: DOMAIN_MESSAGE },
        ],
      },
    ],
  },
};

const LIB_MESSAGE = 'Libraries know no service: what a service needs from a library goes in by parameters.';
const libRule = {
  files: ['libs/*/src/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/services/**', '**/gateway/**', ...SERVICES.map(packageOf), '@confab/gateway'],
            message: LIB_MESSAGE,
          },
        ],
      },
    ],
  },
};

// libs/zulip is Zulip's vocabulary for every service and the web client: pure, so that the browser can import it.
// Its own rule name (typescript-eslint's) so that it adds to the library rule instead of replacing it, and so that
// type-only imports of the other libraries stay allowed.
const ZULIP_MESSAGE =
  'libs/zulip is pure (docs/architecture.md): no Node, no I/O, no runtime code of another package; what it needs goes in by parameters.';
const zulipRule = {
  files: ['libs/zulip/src/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        // Node's modules by exact name (as patterns, `events` or `domain` would match any path segment).
        paths: require('node:module').builtinModules.map((name) => ({ name, message: ZULIP_MESSAGE })),
        patterns: [
          {
            group: ['node:*', '**/libs/**', '**/services/**', '**/gateway/**', '**/generated/**'],
            message: ZULIP_MESSAGE,
          },
          // Out of the package by a relative path (src/x.ts → ../../ is libs/).
          { regex: '^(\\.\\./){2,}', message: ZULIP_MESSAGE },
          {
            group: ['@prisma/*', 'pg', 'pg-*', 'ioredis', 'amqplib', 'bullmq', 'express', 'jsonwebtoken'],
            message: ZULIP_MESSAGE,
          },
          { group: ['@confab/*'], allowTypeImports: true, message: ZULIP_MESSAGE },
        ],
      },
    ],
  },
};

const SERVICE_MESSAGE =
  'A service never imports another: facts cross by events, questions by the internal contracts (docs/architecture.md).';
const serviceRules = [...SERVICES, 'gateway'].map((self) => {
  const others = SERVICES.filter((s) => s !== self);
  return {
    files: [self === 'gateway' ? 'gateway/src/**/*.ts' : `services/${self}/src/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                ...others.flatMap((s) => [`**/services/${s}/**`, `**/${s}/src/**`, packageOf(s)]),
                ...(self === 'gateway' ? [] : ['**/gateway/src/**', '@confab/gateway']),
              ],
              message: SERVICE_MESSAGE,
            },
          ],
        },
      ],
    },
  };
});

// A domain file matches both its service's rule and the domain rule: ESLint keeps the last one for the same rule
// name, so the domain rule carries the service patterns too.
const domainWithServiceRules = SERVICES.map((self) => {
  const service = serviceRules.find((r) => r.files[0] === `services/${self}/src/**/*.ts`);
  return {
    files: [`services/${self}/src/domain/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...domainRule.rules['no-restricted-imports'][1].patterns,
            ...service.rules['no-restricted-imports'][1].patterns,
          ],
        },
      ],
    },
  };
});

module.exports = {
  architectureRules: [libRule, zulipRule, ...serviceRules, ...domainWithServiceRules],
};
