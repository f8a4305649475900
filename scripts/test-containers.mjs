#!/usr/bin/env node
// `npm run test:containers`: the container paths, end to end. Starts a Docker engine if none answers (and stops it
// again), makes the public images available (pulled, or built offline from Debian's packages by
// scripts/offline-images.sh), builds the Confab image, then runs with testcontainers: the compose smoke test
// (tests/containers: `docker compose up`, log in, send, read back, upload, `down -v`), the end-to-end suite and the
// fault tests (CONFAB_TEST_INFRA=containers). Prints the timings and "N passed, M failed".
// `--projects=containers` (comma-separated jest projects: containers, e2e, faults) runs fewer; any other argument
// goes to jest (a file path, -t NAME).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const IMAGES = ['node:20-bookworm-slim', 'postgres:15-alpine', 'redis:7-alpine', 'rabbitmq:3.13-alpine'];
const log = (line) => console.log(`\x1b[36m[containers]\x1b[0m ${line}`);
const ok = (cmd, args, options = {}) => spawnSync(cmd, args, { stdio: 'ignore', ...options }).status === 0;
const root = process.getuid?.() === 0;
const timings = [];

function step(name, fn) {
  const started = Date.now();
  const result = fn();
  timings.push([name, (Date.now() - started) / 1000]);
  return result;
}

function must(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${result.status})`);
    finish(result.status ?? 1);
  }
}

function aptInstall(packages) {
  if (!root || !ok('apt-get', ['--version'])) return false;
  log(`installing ${packages.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    ok('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env, stdio: 'inherit' });
  return install() || (ok('apt-get', ['update'], { env, stdio: 'inherit' }) && install());
}

let dockerd;
const engineAnswers = () => ok('docker', ['info']);
/**
 * The engine this command starts listens only here, not on /var/run/docker.sock, and this command's children find it
 * through DOCKER_HOST: tests that others start on the same machine meanwhile would otherwise see an engine with the
 * images present and move to testcontainers (libs/devkit/src/infra-choice.ts), and lose it when it stops.
 */
const PRIVATE_ENGINE = 'unix:///run/confab-dockerd.sock';

async function ensureEngine() {
  if (engineAnswers()) return;
  process.env.DOCKER_HOST = PRIVATE_ENGINE;
  if (engineAnswers()) return; // one left running by an interrupted run of this command
  if (!ok('dockerd', ['--version']) && !aptInstall(['docker.io'])) {
    console.error('No Docker engine answers and none can be installed here (needs root and apt-get).');
    finish(1);
  }
  if (!root) {
    console.error('No Docker engine answers; dockerd has to be started as root.');
    finish(1);
  }
  mkdirSync(join(ROOT, '.confab'), { recursive: true });
  const out = openSync(join(ROOT, '.confab', 'dockerd.log'), 'a');
  log(`starting dockerd on ${PRIVATE_ENGINE} (log in .confab/dockerd.log); it is stopped again at the end`);
  const args = ['-H', PRIVATE_ENGINE, '--pidfile', '/run/confab-dockerd.pid'];
  dockerd = spawn('dockerd', args, { stdio: ['ignore', out, out], detached: true });
  const deadline = Date.now() + 60_000;
  while (!engineAnswers()) {
    if (Date.now() > deadline || dockerd.exitCode !== null) {
      console.error('dockerd did not come up; see .confab/dockerd.log');
      finish(1);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

function stopEngine() {
  if (!dockerd || dockerd.exitCode !== null) return;
  log('stopping the dockerd this command started');
  dockerd.kill('SIGTERM');
}

function finish(code) {
  stopEngine();
  process.exit(code);
}

/** Every public image present: pulled when missing, or built offline from Debian's packages without a registry. */
function ensureImages() {
  const missing = IMAGES.filter((image) => !ok('docker', ['image', 'inspect', image]));
  const unpullable = missing.filter((image) => {
    log(`pulling ${image}`);
    return !ok('docker', ['pull', '-q', image], { timeout: 300_000 });
  });
  if (unpullable.length === 0) return;
  log(`no registry for ${unpullable.join(', ')}: building stand-ins from Debian's packages`);
  if (!ok('debootstrap', ['--version']) && !existsSync('/usr/sbin/debootstrap')) aptInstall(['debootstrap']);
  must('bash', [join(ROOT, 'scripts', 'offline-images.sh')]);
}

const PROJECTS = ['containers', 'e2e', 'faults'];
const projectsArg = process.argv.slice(2).find((a) => a.startsWith('--projects='));
const projects = projectsArg ? projectsArg.slice('--projects='.length).split(',').filter(Boolean) : PROJECTS;
const unknown = projects.filter((p) => !PROJECTS.includes(p));
if (unknown.length > 0 || projects.length === 0) {
  console.error(`--projects takes some of ${PROJECTS.join(', ')}, not '${projectsArg}'`);
  finish(2);
}
const jestArgs = process.argv.slice(2).filter((a) => a !== projectsArg);

await ensureEngine();
if (!ok('docker', ['compose', 'version']) && !ok('docker-compose', ['version']) && !aptInstall(['docker-compose'])) {
  console.error('Neither `docker compose` nor `docker-compose` is available.');
  finish(1);
}
step('install and compile (node scripts/confab.mjs build)', () => must('node', ['scripts/confab.mjs', 'build']));
step('public images (pull or offline stand-ins)', () => ensureImages());
step('Confab image (docker build -t confab:dev .)', () => must('docker', ['build', '-q', '-t', 'confab:dev', '.']));

const env = { ...process.env, CONFAB_TEST_INFRA: 'containers', CONFAB_CONTAINER_TESTS: '1' };
const results = join(ROOT, '.jest-containers.json');
rmSync(results, { force: true });
const suite = step(`jest projects ${projects.join(', ')} with testcontainers`, () =>
  spawnSync(
    join(ROOT, 'node_modules', '.bin', 'jest'),
    ['--selectProjects', ...projects, '--json', `--outputFile=${results}`, ...jestArgs],
    { cwd: ROOT, stdio: 'inherit', env },
  ),
);
for (const [name, seconds] of timings) log(`${name}: ${seconds.toFixed(0)} s`);
// Killed from outside (no summary, no results file): say so rather than leave only "0 passed, 1 failed".
if (suite.signal) log(`jest was ended by ${suite.signal} before it finished`);
let summary = '0 passed, 1 failed';
if (existsSync(results)) {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  summary = `${r.numPassedTests} passed, ${r.numFailedTests + (r.numRuntimeErrorTestSuites || 0)} failed`;
}
console.log(summary);
finish(suite.status ?? 1);
