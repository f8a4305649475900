#!/usr/bin/env node
// Checks Confab's incoming webhook integrations against Zulip's own test cases (docs/integrations.md, "The checker").
//
//   node scripts/webhook-cases.mjs [--fixtures DIR] [--only github,gitlab] [--failures] [--diff]
//   node scripts/webhook-cases.mjs --live http://127.0.0.1:9991 --bot EMAIL:KEY --reader EMAIL:KEY [--only …]
//
// DIR (or ZULIP_WEBHOOK_FIXTURES) holds Zulip's webhooks-cases.json and webhooks/<integration>/<fixture>: Zulip's
// files, which are never committed here. Without --live every case runs through the pure translation
// (libs/integrations, compiled: run `tsc -b` first) and messaging's own normalization of topic and content; with
// --live each case is POSTed to a running stack's gateway as the incoming-webhook bot and the bot's newest messages
// are read back as the reader (the bot's owner) with apply_markdown=false&allow_empty_topic_name=true. Prints
// per-integration pass counts and the overall percentage; --failures lists every case that differs, --diff shows how.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const args = { only: null, failures: false, diff: false, live: null, bot: null, reader: null, fixtures: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i];
    if (arg === '--only') args.only = new Set(value().split(','));
    else if (arg === '--failures') args.failures = true;
    else if (arg === '--diff') args.diff = args.failures = true;
    else if (arg === '--live') args.live = value().replace(/\/$/, '');
    else if (arg === '--bot') args.bot = value();
    else if (arg === '--reader') args.reader = value();
    else if (arg === '--fixtures') args.fixtures = value();
    else if (arg === '--help' || arg === '-h') {
      console.log(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(1, 14)
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const fixtures = resolve(
  args.fixtures ??
    process.env.ZULIP_WEBHOOK_FIXTURES ??
    (existsSync('/work/shared/zulip-fixtures') ? '/work/shared/zulip-fixtures' : ''),
);
if (!existsSync(join(fixtures, 'webhooks-cases.json'))) {
  console.error(
    `no webhooks-cases.json in ${fixtures || '(nowhere)'}: pass --fixtures DIR or set ZULIP_WEBHOOK_FIXTURES`,
  );
  process.exit(2);
}
const { cases } = JSON.parse(readFileSync(join(fixtures, 'webhooks-cases.json'), 'utf8'));

const require = (await import('node:module')).createRequire(import.meta.url);
const lib = require(join(ROOT, 'libs/integrations/dist/index.js'));
const text = require(join(ROOT, 'services/messaging/dist/domain/text.js'));

// ---------------------------------------------------------------------------------------------------------------
// The request a case describes, as Zulip's test client would have sent it.

const fixture = (file) => readFileSync(join(fixtures, 'webhooks', file), 'utf8');
const valueOf = (v) => (typeof v === 'object' && v !== null ? ('file' in v ? fixture(v.file) : v.text) : String(v));

/** Python's json.dumps (", " and ": " separators, ensure_ascii). */
function pyJsonDumps(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyJsonDumps(k)}: ${pyJsonDumps(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  return JSON.stringify(value);
}

function caseBody(body) {
  if ('file' in body) return fixture(body.file);
  if ('text' in body) return body.text;
  if ('urlencode' in body) return new URLSearchParams(body.urlencode.map(([k, v]) => [k, valueOf(v)])).toString();
  if ('pyjson_dict' in body) return pyJsonDumps(Object.fromEntries(body.pyjson_dict.map(([k, v]) => [k, valueOf(v)])));
  throw new Error(`unknown body ${JSON.stringify(body)}`);
}

function caseQuery(request, apiKey) {
  const params = new URLSearchParams();
  for (const [k, v] of request.query) {
    if (k === 'api_key') {
      if (apiKey !== null) params.append(k, apiKey);
    } else params.append(k, v);
  }
  return params.toString();
}

// ---------------------------------------------------------------------------------------------------------------
// What came out, in the same shape for both modes: an error, or the messages as messaging stored them.

/** A message as messaging stores it (its normalization of the topic and the content), or the error it answers. */
function stored(message) {
  try {
    return {
      stream: message.stream,
      topic: message.stream === null ? null : text.normalizeTopic(message.topic, ''),
      content: text.normalizeContent(message.content),
    };
  } catch (err) {
    return { error: err.message };
  }
}

/**
 * The people an integration names (Jira's assignee) are looked up, without --live, among the development
 * organization's users (services/settings' DEV_USERS): the same people as Zulip's test organization, which its
 * cases name; a live stack's organizations made by its dev endpoint have them too.
 */
const { DEV_USERS } = require(join(ROOT, 'services/settings/dist/domain/provisioning.js'));
const ZULIP_TEST_USERS = DEV_USERS.filter((u) => !u.bot);

async function zulipTestPeople({ emails, names }) {
  const byEmail = ZULIP_TEST_USERS.filter((u) => emails.some((e) => e.toLowerCase() === u.email));
  const byName = names.flatMap((name) => {
    const found = ZULIP_TEST_USERS.find(
      (u) => u.fullName.toLowerCase() === name.toLowerCase() || u.email.startsWith(name.toLowerCase()),
    );
    return found ? [{ name, fullName: found.fullName }] : [];
  });
  return lib.realmPeople(byEmail, byName);
}

async function runPure(kase) {
  const request = kase.request;
  const module = lib.integration(kase.integration);
  if (!module) return { error: 'not implemented', status: 404 };
  const parsed = lib.webhookRequest({
    method: 'POST',
    path: request.path,
    query: caseQuery(request, null),
    headers: { 'content-type': request.content_type, ...request.headers },
    body: caseBody(request.body),
  });
  const req = await lib.withPeople(module, parsed, zulipTestPeople);
  const outcome = lib.runWebhook(module, req);
  if (outcome.kind === 'error') return { error: outcome.error.message, status: outcome.error.status };
  if (outcome.kind === 'response') return { messages: outcome.messages.map(stored), response: outcome.response };
  const messages = outcome.messages.map(stored);
  const failed = messages.find((m) => m.error);
  if (failed) return { error: failed.error, status: 400 };
  return { messages };
}

// ---------------------------------------------------------------------------------------------------------------
// Live mode: the gateway of a running stack.

const basic = (credentials) => `Basic ${Buffer.from(credentials).toString('base64')}`;

async function api(method, path, credentials, params) {
  const url = new URL(`${args.live}/api/v1${path}`);
  const init = { method, headers: { authorization: basic(credentials) } };
  if (params && method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  else if (params) {
    init.body = new URLSearchParams(params).toString();
    init.headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(url, init);
  return res.json();
}

const ensured = new Set();
async function ensureChannel(name) {
  if (name === null || ensured.has(name)) return;
  ensured.add(name);
  await api('POST', '/users/me/subscriptions', args.reader, { subscriptions: JSON.stringify([{ name }]) });
}

async function newestIdOfBot(botEmail) {
  const page = await api('GET', '/messages', args.reader, {
    anchor: 'newest',
    num_before: '1',
    num_after: '0',
    narrow: JSON.stringify([{ operator: 'sender', operand: botEmail }]),
  });
  return page.messages?.[0]?.id ?? 0;
}

async function runLive(kase) {
  const [botEmail, botKey] = args.bot.split(':');
  const request = kase.request;
  const channels = kase.expected_messages?.map((m) => m.channel) ?? [kase.channel];
  for (const channel of channels) await ensureChannel(channel);
  const before = await newestIdOfBot(botEmail);
  const isBasic = request.auth === 'basic';
  const headers = { 'content-type': request.content_type, ...request.headers };
  if (isBasic) headers.authorization = basic(`${botEmail}:${botKey}`);
  const query = caseQuery(request, isBasic ? null : botKey);
  const res = await fetch(`${args.live}${request.path}?${query}`, {
    method: 'POST',
    headers,
    body: caseBody(request.body),
  });
  const answer = await res.json().catch(() => ({}));
  if (answer.result !== 'success') return { error: answer.msg, status: res.status };
  const page = await api('GET', '/messages', args.reader, {
    anchor: String(before),
    include_anchor: 'false',
    num_before: '0',
    num_after: '20',
    apply_markdown: 'false',
    allow_empty_topic_name: 'true',
    narrow: JSON.stringify([{ operator: 'sender', operand: botEmail }]),
  });
  const messages = (page.messages ?? []).map((m) => ({
    stream: m.type === 'stream' ? m.display_recipient : null,
    topic: m.type === 'stream' ? m.subject : null,
    content: m.content,
  }));
  return { messages };
}

// ---------------------------------------------------------------------------------------------------------------
// Comparison with what Zulip expects.

function expectedOf(kase) {
  switch (kase.expect) {
    case 'message':
      return { messages: [{ stream: kase.channel, topic: kase.expected_topic, content: kase.expected_message }] };
    case 'messages':
      return {
        messages: kase.expected_messages.map((m) => ({ stream: m.channel, topic: m.topic, content: m.content })),
      };
    case 'dm':
      return { messages: [{ stream: null, topic: null, content: kase.expected_message }] };
    case 'noop':
    case 'success':
      return { messages: [] };
    case 'error':
      return { error: kase.expected_error, status: kase.expected_status };
    default:
      throw new Error(`unknown expectation ${kase.expect}`);
  }
}

function differs(expected, actual) {
  if (expected.error !== undefined) {
    if (actual.error === undefined) return 'succeeded';
    if (actual.error !== expected.error) return 'another error';
    if (expected.status !== undefined && actual.status !== expected.status) return `HTTP ${actual.status}`;
    return null;
  }
  if (actual.error !== undefined) return `error: ${actual.error}`;
  if (actual.messages.length !== expected.messages.length) {
    return `${actual.messages.length} messages instead of ${expected.messages.length}`;
  }
  for (const [i, want] of expected.messages.entries()) {
    const got = actual.messages[i];
    if (got.stream !== want.stream) return `channel ${got.stream} instead of ${want.stream}`;
    if (want.topic !== null && got.topic !== want.topic) return 'topic';
    if (got.content !== want.content) return 'content';
  }
  return null;
}

const selected = cases.filter((c) => !args.only || args.only.has(c.integration));
const perIntegration = new Map();
const failures = [];
for (const kase of selected) {
  const expected = expectedOf(kase);
  let actual;
  try {
    actual = args.live ? await runLive(kase) : await runPure(kase);
  } catch (err) {
    actual = { error: `crashed: ${err.stack ?? err}` };
  }
  const reason = differs(expected, actual);
  const tally = perIntegration.get(kase.integration) ?? { pass: 0, total: 0, implemented: true };
  tally.total += 1;
  if (!reason) tally.pass += 1;
  if (actual.error === 'not implemented') tally.implemented = false;
  perIntegration.set(kase.integration, tally);
  if (reason && tally.implemented) failures.push({ kase, reason, expected, actual });
}

const rows = [...perIntegration.entries()].sort(([a], [b]) => a.localeCompare(b));
let pass = 0;
let total = 0;
for (const [name, t] of rows) {
  pass += t.pass;
  total += t.total;
  const note = t.implemented ? '' : '  (not implemented)';
  console.log(`${name.padEnd(16)} ${String(t.pass).padStart(4)} / ${String(t.total).padEnd(4)}${note}`);
}
const implemented = rows.filter(([, t]) => t.implemented);
const implPass = implemented.reduce((s, [, t]) => s + t.pass, 0);
const implTotal = implemented.reduce((s, [, t]) => s + t.total, 0);
console.log(
  `\n${pass} / ${total} cases exact (${((100 * pass) / Math.max(total, 1)).toFixed(1)} %); ` +
    `implemented integrations ${implemented.length}: ${implPass} / ${implTotal} ` +
    `(${((100 * implPass) / Math.max(implTotal, 1)).toFixed(1)} %)`,
);
if (args.failures) {
  for (const { kase, reason, expected, actual } of failures) {
    console.log(`\n✗ ${kase.id} (${kase.request.fixture ?? 'inline body'}): ${reason}`);
    if (args.diff) {
      console.log(`  expected: ${JSON.stringify(expected)}`);
      console.log(`  actual:   ${JSON.stringify(actual)}`);
    }
  }
}
