#!/usr/bin/env node
// npm run test:ha -- e2e: the end-to-end suite against Confab on three hosts (scripts/ha.mjs). Makes the topology
// with the e2e suite's settings (`up --e2e`), writes the file that points the suite at it (`e2e-state`:
// CONFAB_TEST_STATE), runs jest's e2e project inside the switch's namespace (cfha-net, which reaches every host; a
// test's extra copy of a process starts there and joins the deployment) with two workers, prints the outcome, appends
// it to bench/RESULTS.md and removes the topology.
//   node scripts/test-ha.mjs e2e [--keep] [--reuse] [--no-browser] [--no-record] [jest arguments…]
//   --keep leaves the topology up, --reuse runs on one `npm run ha -- up --e2e` made, --no-browser leaves the
//   browser files out, --no-record prints without writing bench/RESULTS.md; further arguments go to jest (files).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ha from './ha.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => console.log(`[test:ha e2e] ${new Date().toISOString().slice(11, 19)} ${line}`);
const OWN = new Set(['e2e', '--keep', '--reuse', '--no-browser', '--no-record']);

export async function runE2e(argv) {
  const flag = (name) => argv.includes(name);
  const jestArgs = argv.filter((a) => !OWN.has(a));
  ensureE2ePackages(!flag('--no-browser'));
  if (!flag('--reuse')) await ha.up({ e2e: true });
  const load = [];
  const sampler = setInterval(() => load.push(loadavg()[0]), 10_000);
  const started = Date.now();
  const results = join(ha.HA.dir, 'e2e-results.json');
  let code = 1;
  try {
    const state = ha.e2eState();
    const args = [
      'netns',
      'exec',
      ha.HA.netns,
      process.execPath,
      join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
      ...jestArgs,
      '--selectProjects',
      'e2e',
      '-w',
      '2',
      '--json',
      `--outputFile=${results}`,
      // The e2e project's own patterns (jest.config.js leaves out its OWN_DEPLOYMENT files here) and the browser files.
      // Files first, one option per pattern: a list option takes the arguments that follow it as its own.
      ...(flag('--no-browser') ? [...externalIgnore(), 'browser'].map((p) => `--testPathIgnorePatterns=${p}`) : []),
    ];
    log(`jest ${args.slice(5).join(' ')} (in ${ha.HA.netns}, CONFAB_TEST_STATE=${state})`);
    code = await new Promise((resolve) => {
      const child = spawn('ip', args, {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, CONFAB_TEST_STATE: state },
      });
      child.on('exit', (c) => resolve(c ?? 1));
    });
    clearInterval(sampler);
    load.push(loadavg()[0]);
    const outcome = summary(JSON.parse(readFileSync(results, 'utf8')), Date.now() - started, load);
    for (const line of outcome.lines) log(line);
    if (!flag('--no-record')) record(outcome, jestArgs, flag('--no-browser'));
  } finally {
    clearInterval(sampler);
    if (!flag('--keep')) {
      log('removing the topology');
      ha.down();
    }
    rmSync(results, { force: true });
  }
  return code;
}

/** The Debian packages e2e files drive, as `npm test` installs them (scripts/confab.mjs, TEST_PACKAGES). */
function ensureE2ePackages(browser) {
  const wanted = [
    { name: 'slapd', path: '/usr/sbin/slapd' },
    ...(browser ? [{ name: 'chromium', path: '/usr/bin/chromium' }] : []),
  ]
    .filter((p) => !existsSync(p.path))
    .map((p) => p.name);
  if (wanted.length === 0) return;
  log(`installing ${wanted.join(', ')} (apt-get) for the tests`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  if (!apt(['install', '-y', '--no-install-recommends', ...wanted])) {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...wanted]);
  }
}

/** The e2e project's ignore patterns as jest.config.js gives them for a run against a deployment started elsewhere. */
function externalIgnore() {
  process.env.CONFAB_TEST_STATE ??= 'external';
  const config = createRequire(import.meta.url)(join(ROOT, 'jest.config.js'));
  return config.projects.find((p) => p.displayName === 'e2e').testPathIgnorePatterns;
}

function summary(json, elapsedMs, load) {
  const failedFiles = json.testResults
    .filter((r) => r.status !== 'passed')
    .map((r) => ({
      file: relative(ROOT, r.name),
      failed: r.assertionResults.filter((a) => a.status === 'failed').length,
      first: (r.assertionResults.find((a) => a.status === 'failed')?.fullName ?? r.message ?? '')
        .split('\n')[0]
        .slice(0, 160),
    }));
  const minutes = (elapsedMs / 60000).toFixed(0);
  const range = `${Math.min(...load).toFixed(0)}–${Math.max(...load).toFixed(0)}`;
  const lines = [
    `files: ${json.numTotalTestSuites}, passed ${json.numPassedTestSuites}, failed ${json.numFailedTestSuites}`,
    `tests: ${json.numTotalTests}, passed ${json.numPassedTests}, failed ${json.numFailedTests}, skipped ${json.numPendingTests + json.numTodoTests}`,
    `${minutes} min, two workers; load average (1 min) ${range} during the run`,
    ...failedFiles.map((f) => `failed: ${f.file} (${f.failed} tests; ${f.first})`),
  ];
  return { json, lines, failedFiles, minutes, range };
}

function record(outcome, jestArgs, noBrowser) {
  const which = jestArgs.length
    ? `the files ${jestArgs.join(' ')}`
    : noBrowser
      ? 'the browser files left out'
      : 'every file';
  appendFileSync(
    join(ROOT, 'bench', 'RESULTS.md'),
    `\n### The end-to-end suite against the three hosts (npm run test:ha -- e2e, ${new Date().toISOString().slice(0, 16)}Z)\n\n` +
      `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, shared with other work; ${which}; ` +
      "jest with two workers in the switch's namespace against a fresh `npm run ha -- up --e2e`.\n\n" +
      outcome.lines.map((l) => `- ${l}`).join('\n') +
      '\n',
  );
}
