#!/usr/bin/env node
// Starts one Confab process by its catalog name (docker compose). A process whose package is not in this build
// yet says so and exits 0, so `docker compose up` runs whatever the build contains.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const devkit = require('../libs/devkit/dist/catalog.js');

const name = process.argv[2];
const planned = devkit.plannedProcesses().find((p) => p.name === name);
if (!planned) {
  console.error(
    `unknown process '${name}'; the catalog has: ${devkit
      .plannedProcesses()
      .map((p) => p.name)
      .join(', ')}`,
  );
  process.exit(2);
}
if (!devkit.processes().some((p) => p.name === name)) {
  const source = planned.entry.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
  console.log(`${name}: not part of this build (no ${planned.dir}/${source}); not started`);
  process.exit(0);
}
// Loaded in this process, so SIGTERM reaches the process's own shutdown handler directly.
await import(pathToFileURL(join(devkit.REPO_ROOT, planned.dir, planned.entry)).href);
