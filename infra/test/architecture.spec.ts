import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The layering rules of docs/architecture.md (eslint.architecture.cjs, part of `pnpm lint`): each planted violation
// must fail, and each allowed import must pass.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { architectureRules } = require('../../eslint.architecture.cjs') as { architectureRules: unknown[] };

const ROOT = join(__dirname, '..', '..');
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    // The TypeScript plugin only so that sources' disable comments name known rules.
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { '@typescript-eslint': tseslint.plugin },
    },
    ...(architectureRules as []),
  ],
});

async function problems(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  // Only rule findings count: a source's disable comment for a type-aware rule is unused under these rules alone.
  return (result?.messages ?? []).filter((m) => m.ruleId !== null).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture rules (eslint.architecture.cjs)', () => {
  it.each([
    ['services/groups/src/domain/planted.ts', "import { PrismaGroupStore } from '../repositories/group-store.js';"],
    ['services/groups/src/domain/planted.ts', "import { PrismaClient } from '../generated/prisma/client.js';"],
    ['services/invitations/src/domain/planted.ts', "import { route } from '@confab/http';"],
    ['services/invitations/src/domain/planted.ts', "import pg from 'pg';"],
    ['libs/events/src/planted.ts', "import { buildApp } from '../../../services/groups/src/app.js';"],
    ['libs/http/src/planted.ts', "import { x } from '@confab/messaging';"],
    ['services/groups/src/routes/planted.ts', "import { x } from '../../../messaging/src/domain/send.js';"],
    ['services/groups/src/domain/planted.ts', "import { x } from '../../../settings/src/domain/users.js';"],
    ['gateway/src/planted.ts', "import { x } from '../../services/settings/src/domain/auth.js';"],
    ['services/messaging/src/domain/planted.ts', "import { Store } from '../repositories/store.js';"],
    ['services/push/src/domain/planted.ts', "import { PrismaClient } from '../generated/prisma/client.js';"],
  ])('refuses %s importing %s', async (file, source) => {
    expect(await problems(file, source)).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  // libs/zulip stays pure: the web client imports it.
  it.each([
    "import { createHash } from 'node:crypto';",
    "import { readFileSync } from 'fs';",
    "import { PrismaClient } from '@prisma/client';",
    "import pg from 'pg';",
    "import Redis from 'ioredis';",
    "import amqp from 'amqplib';",
    "import express from 'express';",
    "import { invalid } from '@confab/errors';",
    "import { contracts } from '@confab/events';",
    "import { x } from '../../events/src/index.js';",
  ])('refuses libs/zulip importing %s', async (source) => {
    expect(await problems('libs/zulip/src/planted.ts', source)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*libs\/zulip is pure/),
    ]);
  });

  it.each([
    "import type { contracts } from '@confab/events';",
    "import { ROLE_GUEST } from './roles.js';",
    "import { x } from './domain/events.js';",
  ])('allows libs/zulip importing %s', async (source) => {
    expect(await problems('libs/zulip/src/planted.ts', source)).toEqual([]);
  });

  it.each([
    ['services/groups/src/domain/planted.ts', "import { contracts } from '@confab/events';"],
    ['services/groups/src/domain/planted.ts', "import type { GroupStore } from './store.js';"],
    ['services/groups/src/repositories/planted.ts', "import type { GroupStore } from '../domain/store.js';"],
    ['services/groups/src/routes/planted.ts', "import { route } from '@confab/http';"],
    ['libs/http/src/planted.ts', "import { unauthorized } from '@confab/errors';"],
  ])('allows %s importing %s', async (file, source) => {
    expect(await problems(file, source)).toEqual([]);
  });

  it('hold for every source file of the repository', async () => {
    const sources = ['libs', 'services', 'gateway'].flatMap((top) =>
      readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' })
        .map((file) => join(top, file))
        .filter((file) => /\/src\/.*\.ts$/.test(file) && !/\/(node_modules|dist|generated)\//.test(file)),
    );
    expect(sources.length).toBeGreaterThan(100);
    const violations: string[] = [];
    for (const file of sources) {
      for (const problem of await problems(file, readFileSync(join(ROOT, file), 'utf8'))) {
        violations.push(`${file}: ${problem}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps every product source file at 400 lines or fewer (issue 14), generated code aside', () => {
    const sources = ['libs', 'services', 'gateway', 'web'].flatMap((top) =>
      readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' })
        .map((file) => join(top, file))
        .filter((file) => /\/src\/.*\.tsx?$/.test(file) && !/\/(node_modules|dist|generated)\//.test(file)),
    );
    expect(sources.length).toBeGreaterThan(100);
    const long = sources
      .map((file) => [file, readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it('type-checks every test project, which jest only transpiles (scripts/typecheck-tests.mjs)', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'typecheck-tests.mjs')], { encoding: 'utf8' });
    // On failure the compiler's messages are the assertion's diff.
    expect(result.status === 0 ? '' : `${result.stdout}${result.stderr}`).toBe('');
  }, 300_000);
});
