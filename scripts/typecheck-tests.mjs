#!/usr/bin/env node
// Type-checks every test project (jest transpiles tests without checking their types): `pnpm typecheck:tests`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
const projects = ['libs', 'services']
  .flatMap((top) => readdirSync(join(ROOT, top)).map((name) => join(top, name, 'test')))
  .concat(['gateway/test', 'tests/e2e'])
  .filter((dir) => existsSync(join(ROOT, dir, 'tsconfig.json')));
let failed = 0;
for (const dir of projects) {
  const result = spawnSync(tsc, ['-p', join(ROOT, dir, 'tsconfig.json'), '--noEmit'], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
  console.log(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${dir}`);
}
process.exit(failed === 0 ? 0 : 1);
