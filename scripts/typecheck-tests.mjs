#!/usr/bin/env node
// Type-checks every test project (jest transpiles tests without checking their types): `pnpm typecheck:tests`.
// Two compiler runs: the unit and integration tests of every library, service, the gateway and infra/test in one
// program (tsconfig.tests.json, every @confab library from its sources), so that the node and jest types and the
// libraries are checked once rather than once per test folder (a third of the time); and the end-to-end suite, whose
// browser code needs the DOM library. Each test folder keeps its own tsconfig.json for editors.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
const programs = ['tsconfig.tests.json', 'tests/e2e/tsconfig.json'];
let failed = 0;
for (const project of programs) {
  const result = spawnSync(tsc, ['-p', join(ROOT, project), '--noEmit'], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
  console.log(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${project}`);
}
process.exit(failed === 0 ? 0 : 1);
