#!/usr/bin/env node
// The import benchmark of issue 43: generates a Slack export of 1,000,000 messages in 200 channels with 2,000 users
// and reactions, imports it into a stack of its own with `npm run admin -- import`, and prints the wall and CPU time
// of the import (the CLI and its loader processes, and PostgreSQL's share while it ran).
//
//   node bench/import-slack.mjs [messages=1000000] [--keep] [--export-dir <dir>] [--generate-only]
//   BENCH_PROFILE=<dir>: CPU profiles of the CLI and its loaders into <dir>, nothing recorded.
//
// The export's shape (chosen to look like a large workspace, and stated so the figures can be compared):
//   users     2,000: 200 heavy posters, 400 occasional ones, 1,400 lurkers (at most 5 messages each, all older
//             than 60 days: Zulip's long-term idle users), 20 deactivated, 5 bots;
//   channels  200: #general (everyone), 9 large (200 members), 190 team channels (about 15 members each);
//             10 of them private; one year of day files;
//   messages  0.5% in #general, 9% in the large channels, the rest in team channels; 10% thread replies, 5%
//             mentioning a member, 3% with a link or bold text; 15% with 1–3 reactions (skin tones included);
//             the last 60 days hold a tenth of them.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import devkit from '@confab/devkit';
import { machine, record } from './lib.mjs';

const run = promisify(execFile);
const args = process.argv.slice(2);
const total = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const keep = args.includes('--keep');
const exportDirArg = args.includes('--export-dir') ? args[args.indexOf('--export-dir') + 1] : undefined;

/** A small deterministic generator (mulberry32), so two runs import the same export. */
let seed = 43;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const WORDS = 'the release plan build deploy review meeting notes customer issue fix test design lunch question idea update docs server client budget schedule team project launch'.split(' ');
const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');

async function generate(dir) {
  const now = Math.floor(Date.now() / 1000);
  const yearAgo = now - 365 * 86_400;
  const recentFrom = now - 60 * 86_400;
  const users = [];
  const kinds = [];
  for (let i = 0; i < 2000; i++) {
    const id = `U${String(i + 1).padStart(6, '0')}`;
    const kind = i < 200 ? 'heavy' : i < 600 ? 'occasional' : 'lurker';
    kinds.push(kind);
    users.push({
      id,
      name: `user${i + 1}`,
      real_name: `User ${i + 1} ${pick(['Smith', 'Jones', 'Garcia', 'Chen', 'Kumar', 'Okafor', 'Novak'])}`,
      deleted: i >= 1980,
      is_primary_owner: i === 0,
      is_admin: i > 0 && i < 5,
      tz: 'Europe/Berlin',
      profile: { email: `user${i + 1}@example.com` },
    });
  }
  for (let b = 0; b < 5; b++)
    users.push({ id: `UBOT${b}`, name: `bot${b}`, real_name: `Build Bot ${b}`, deleted: false, is_bot: true, profile: { bot_id: `B${b}`, real_name_normalized: `Build Bot ${b}` } });
  const active = users.slice(0, 1980).map((u) => u.id);
  const channels = [];
  const members = [];
  channels.push({ id: 'C0000', name: 'general', members: active });
  for (let c = 1; c < 10; c++) {
    const set = new Set();
    while (set.size < 200) set.add(active[Math.floor(random() * (random() < 0.5 ? 600 : active.length))]);
    channels.push({ id: `C${String(c).padStart(4, '0')}`, name: `large-${c}`, members: [...set] });
  }
  for (let c = 10; c < 200; c++) {
    const set = new Set();
    const size = 8 + Math.floor(random() * 15);
    while (set.size < size) set.add(active[Math.floor(random() * (random() < 0.7 ? 600 : active.length))]);
    channels.push({ id: `C${String(c).padStart(4, '0')}`, name: `team-${c}`, members: [...set] });
  }
  for (const c of channels) members.push(c.members);
  const lurkerCount = new Map();
  const byFile = new Map();
  const threadRoots = new Map();
  let reactions = 0;
  for (let n = 0; n < total; n++) {
    const r = random();
    const c = r < 0.005 ? 0 : r < 0.095 ? 1 + Math.floor(random() * 9) : 10 + Math.floor(random() * 190);
    const channel = channels[c];
    const recent = random() < 0.1;
    let ts = recent ? recentFrom + random() * (now - recentFrom) : yearAgo + random() * (recentFrom - yearAgo);
    // Senders: heavy and occasional posters; a lurker now and then, only in the old part and at most 5 times.
    let sender = pick(channel.members);
    const index = Number(sender.slice(1)) - 1;
    if (kinds[index] === 'lurker') {
      const count = lurkerCount.get(sender) ?? 0;
      if (recent || count >= 5 || random() < 0.9) sender = pick(channel.members.filter((m) => kinds[Number(m.slice(1)) - 1] !== 'lurker') || channel.members) ?? sender;
      else lurkerCount.set(sender, count + 1);
    }
    let text = sentence(5 + Math.floor(random() * 15));
    const roll = random();
    if (roll < 0.05) text = `<@${pick(channel.members)}> ${text}`;
    else if (roll < 0.065) text = `${text} see <https://example.com/docs/${n}|the docs>`;
    else if (roll < 0.08) text = `*important* ${text}`;
    const message = { type: 'message', user: sender, text, ts: `${ts.toFixed(6)}` };
    const roots = threadRoots.get(c) ?? [];
    if (random() < 0.1 && roots.length > 0) {
      const root = pick(roots);
      if (root.ts < ts) {
        message.thread_ts = root.ts;
        message.parent_user_id = root.user;
      }
    } else if (random() < 0.05) {
      message.thread_ts = message.ts;
      roots.push({ ts: message.ts, user: sender });
      if (roots.length > 20) roots.shift();
      threadRoots.set(c, roots);
    }
    if (random() < 0.15) {
      const list = [];
      const count = 1 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) {
        const name = pick(['+1', 'heart', 'tada', 'eyes', 'joy', '+1::skin-tone-3', 'clap::skin-tone-2']);
        const who = [...new Set([pick(channel.members), pick(channel.members)])];
        list.push({ name, users: who, count: who.length });
        reactions += who.length;
      }
      message.reactions = list;
    }
    const day = new Date(ts * 1000).toISOString().slice(0, 10);
    const key = `${channel.name}/${day}.json`;
    if (!byFile.has(key)) byFile.set(key, []);
    byFile.get(key).push(message);
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'users.json'), JSON.stringify(users));
  const now2 = now - 400 * 86_400;
  const publicChannels = channels.filter((c, i) => i < 190);
  const privateChannels = channels.filter((c, i) => i >= 190);
  const meta = (c) => ({ id: c.id, name: c.name, created: now2, is_archived: false, members: c.members, purpose: { value: `The ${c.name} channel` } });
  await writeFile(join(dir, 'channels.json'), JSON.stringify(publicChannels.map(meta)));
  await writeFile(join(dir, 'groups.json'), JSON.stringify(privateChannels.map(meta)));
  for (const c of channels) await mkdir(join(dir, c.name), { recursive: true });
  for (const [key, messages] of byFile) {
    messages.sort((a, b) => Number(a.ts) - Number(b.ts));
    await writeFile(join(dir, key), JSON.stringify(messages));
  }
  return { files: byFile.size, reactions, subscriptions: members.reduce((n, m) => n + m.length, 0) };
}

/**
 * CPU seconds of PostgreSQL from /proc, ended connections included: each postmaster's own time and its reaped
 * children's (cutime, cstime: the backends that have exited), plus the live backends' time. A backend that exits
 * between two readings moves from the second part to the first, so the difference of two readings is the CPU spent
 * between them (by every PostgreSQL process of the machine, which others share).
 */
async function cpuOfPostgres() {
  const { stdout } = await run('ps', ['-C', 'postgres', '-o', 'pid=,ppid=']).catch(() => ({ stdout: '' }));
  const rows = stdout.split('\n').filter(Boolean).map((line) => line.trim().split(/\s+/).map(Number));
  const pids = new Set(rows.map(([pid]) => pid));
  const ticks = Number(process.env.CLK_TCK ?? 100);
  let total = 0;
  for (const [pid, ppid] of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    // fields[11..14] are utime, stime, cutime, cstime (proc(5) fields 14-17).
    const own = fields[11] + fields[12];
    total += pids.has(ppid) ? own : own + fields[13] + fields[14];
  }
  return total / ticks;
}

const work = await mkdtemp(join(tmpdir(), 'confab-bench-import-'));
const exportDir = exportDirArg ?? join(work, 'slack');
let generated;
if (exportDirArg && (await readFile(join(exportDir, 'users.json')).catch(() => null))) {
  console.log(`using the export in ${exportDir}`);
} else {
  const t0 = Date.now();
  generated = await generate(exportDir);
  console.log(`generated ${total} messages in ${generated.files} day files (${generated.reactions} reactions) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (args.includes('--generate-only')) process.exit(0);

// The databases of a deployment, migrated (no service needs to run for an import: it is an operator tool).
const databases = {};
for (const service of ['settings', 'messaging', 'groups', 'invitations', 'push'])
  databases[service] = await devkit.serviceDatabase(service, 'bench');
try {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' };
  for (const [service, db] of Object.entries(databases)) env[`${service.toUpperCase()}_DATABASE_URL`] = db.url;
  env.CONFAB_DATA_DIR = join(work, 'data');
  env.CONFAB_REDIS_PREFIX = `bench-import-${Date.now()}`;
  env.CONFAB_EXTERNAL_URL = 'http://localhost:9991';
  // BENCH_PROFILE=<dir>: the CLI and its loader processes write CPU profiles there (such a run is not recorded).
  const profile = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` : '';
  if (profile) env.CONFAB_NODE_ARGS = profile;
  const loadBefore = loadavg()[0].toFixed(1);
  const pgBefore = await cpuOfPostgres();
  const started = Date.now();
  const child = await run(
    'bash',
    ['-c', `/usr/bin/time -f '%e %U %S' ${process.execPath} ${profile} services/settings/dist/cli.js import --source slack --from ${exportDir} --subdomain bench`],
    { env, cwd: new URL('..', import.meta.url).pathname, maxBuffer: 256 * 1024 * 1024 },
  );
  const wall = (Date.now() - started) / 1000;
  const pgAfter = await cpuOfPostgres();
  const loadAfter = loadavg()[0].toFixed(1);
  const [, user, system] = child.stderr.trim().split('\n').pop().split(' ').map(Number);
  const lines = child.stdout.split('\n').filter((l) => !/^(users|channels|messages|message rows|uploads|reading|user groups) /.test(l));
  console.log(lines.join('\n'));
  const counts = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().replace(/\s{2,}/, ': ')).join(', ');
  const cpu = (user + system).toFixed(1);
  const pg = (pgAfter - pgBefore).toFixed(1);
  const rate = Math.round(total / wall);
  console.log(`wall ${wall.toFixed(1)} s, ${rate} messages/s; CPU ${cpu} s (CLI and loaders), PostgreSQL ${pg} s; load ${loadBefore} → ${loadAfter}`);
  if (!profile && process.env.BENCH_RECORD !== '0') record(`## Issue 43: importing a Slack export of ${total.toLocaleString('en-US')} messages (${new Date().toISOString().slice(0, 16)}Z)

\`node bench/import-slack.mjs ${total}\` on ${machine()}: 2,000 users, 200 channels, one year of day files
(the shape is in the script's header). \`npm run admin -- import\` took **${wall.toFixed(1)} s wall**
(${rate.toLocaleString('en-US')} messages/s); CPU: ${cpu} s for the CLI and its loader processes, ${pg} s for PostgreSQL's
processes meanwhile (ended connections included: every PostgreSQL process of the machine, which others share). Load average (1 min) ${loadBefore} before,
${loadAfter} after, on a machine shared with other engineers.
Written: ${counts}.
`);
} finally {
  for (const db of Object.values(databases)) await db.drop().catch(() => undefined);
  if (!keep) await rm(work, { recursive: true, force: true });
}
