// A realistic mix through the gateway for a fixed time — channel sends, history reads, reaction add/remove, typing
// notifications and draft edits, each its own autocannon run in parallel, while a few clients long-poll their event
// queues — then per-endpoint throughput, p50/p99 and errors. The resident memory of every process is sampled
// throughout, so a long run doubles as the soak test (memory flat or not).
// Usage: pnpm --filter @confab/bench mix [seconds] [connections]   (soak: pnpm --filter @confab/bench mix 600)
import { readFileSync } from 'node:fs';
import devkit from '@confab/devkit';
import { load, machine, record, startBenchStack } from './lib.mjs';

const duration = Number(process.argv[2] ?? 60);
const connections = Number(process.argv[3] ?? 32);
const SAMPLE_EVERY_MS = duration >= 300 ? 30_000 : 5_000;

/** Connections per endpoint, in proportion to how often a chat client makes these calls. */
const SHARES = { send: 0.25, read: 0.3, reaction: 0.2, typing: 0.1, draft: 0.15 };
const share = (name) => Math.max(1, Math.round(connections * SHARES[name]));

function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const form = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

const { stack, info } = await startBenchStack();
try {
  const world = await devkit.createWorld(info);
  const iago = world.as('iago');
  const user = world.user('iago');
  const basic = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  const headers = { authorization: basic, host: world.host, 'content-type': 'application/x-www-form-urlencoded' };
  const api = `${info.gatewayUrl}/api/v1`;

  const streams = await iago.get('/streams');
  const verona = streams.body.streams.find((s) => s.name === 'Verona');
  // Messages to react to. A POST takes a free message and the DELETE after it on the same connection gives it back
  // once answered, so no two connections ever toggle the same reaction; three per connection leaves room for pairs a
  // run's end cuts in half.
  const free = [];
  for (let i = 0; i < 3 * share('reaction'); i++) {
    const sent = await iago.post('/messages', { type: 'stream', to: 'Verona', topic: 'reactions', content: `m${i}` });
    free.push(sent.body.id);
  }
  // One draft per draft connection, edited over and over.
  const drafts = [];
  const draftsAvailable = (await iago.get('/drafts')).status === 200;
  if (draftsAvailable) {
    const draft = { type: 'stream', to: [verona.stream_id], topic: 'drafts', content: 'draft' };
    const created = await iago.post('/drafts', { drafts: JSON.stringify(Array(share('draft')).fill(draft)) });
    drafts.push(...created.body.ids);
  }

  // Clients with open event queues, long-polling like Zulip's apps do, for the whole run.
  let polling = true;
  let eventsReceived = 0;
  const pollers = ['hamlet', 'othello', 'cordelia', 'prospero'].map(async (name) => {
    const client = world.as(name);
    const queue = await client.post('/register', { event_types: ['message', 'reaction', 'typing'] });
    let lastEventId = queue.body.last_event_id;
    while (polling) {
      const response = await client.get('/events', { queue_id: queue.body.queue_id, last_event_id: lastEventId });
      for (const event of response.body.events ?? []) {
        lastEventId = Math.max(lastEventId, event.id);
        eventsReceived += 1;
      }
    }
  });

  let nextDraft = 0;
  const reactionPath = (id) => `/api/v1/messages/${id}/reactions`;
  const runs = {
    send: {
      url: `${api}/messages`,
      method: 'POST',
      body: form({ type: 'stream', to: 'Verona', topic: 'load', content: 'Hello from the **load mix**' }),
    },
    read: {
      url: `${api}/messages?${form({
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'channel', operand: 'Verona' }],
      })}`,
    },
    reaction: {
      url: `${api}/messages`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req, context) => {
            context.target = free.shift();
            return { ...req, path: reactionPath(context.target), body: form({ emoji_name: 'octopus' }) };
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req, context) => ({
            ...req,
            path: reactionPath(context.target),
            body: form({ emoji_name: 'octopus' }),
          }),
          onResponse: (status, body, context) => free.push(context.target),
        },
      ],
    },
    typing: {
      url: `${api}/typing`,
      method: 'POST',
      body: form({ type: 'stream', stream_id: String(verona.stream_id), topic: 'load', op: 'start' }),
    },
    ...(draftsAvailable
      ? {
          draft: {
            url: `${api}/drafts`,
            requests: [
              {
                method: 'PATCH',
                setupRequest: (req) => ({
                  ...req,
                  path: `/api/v1/drafts/${drafts[nextDraft++ % drafts.length]}`,
                  body: form({
                    draft: { type: 'stream', to: [verona.stream_id], topic: 'drafts', content: `edit ${Date.now()}` },
                  }),
                }),
              },
            ],
          },
        }
      : {}),
  };

  const processes = Object.values(stack.describeProcesses());
  const samples = [];
  const sample = () =>
    samples.push({ at: Date.now(), rss: Object.fromEntries(processes.map((p) => [p.name, rssMiB(p.pid)])) });
  // A short warm-up so the first sample is taken from warm processes, not from just-started ones.
  await Promise.all(
    Object.entries(runs).map(([name, run]) => load({ ...run, headers, connections: share(name), duration: 5 })),
  );
  sample();
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  const started = Date.now();
  const results = await Promise.all(
    Object.entries(runs).map(([name, run]) =>
      load({ ...run, headers, connections: share(name), duration, title: name }),
    ),
  );
  clearInterval(sampler);
  sample();
  polling = false;
  // Wake the long polls so the pollers finish.
  await iago.post('/messages', { type: 'stream', to: 'Verona', topic: 'load', content: 'done' });
  await Promise.race([Promise.all(pollers), new Promise((r) => setTimeout(r, 15_000))]);
  const elapsed = (Date.now() - started) / 1000;

  const total = results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
  const errors = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const names = processes.map((p) => p.name);
  const first = samples[0];
  const last = samples[samples.length - 1];
  const peak = (name) => Math.max(...samples.map((s) => s.rss[name]));
  const kind = duration >= 300 ? 'Soak' : 'Load mix';
  const section = `
## ${kind}: sends, reads, reactions, typing, drafts through the gateway, ${duration} s — ${new Date().toISOString().slice(0, 10)}

Machine: ${machine()}; autocannon, the stack and PostgreSQL/Redis/RabbitMQ share it (load average
${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end). ${connections} connections split
by endpoint, all as one user (Iago) in one organization (channel Verona, 10 subscribers), 4 more users long-polling
event queues (${eventsReceived} events received). Script: \`bench/load-mix.mjs ${duration} ${connections}\`.${draftsAvailable ? '' : ' (Drafts not available in this build: left out.)'}

| endpoint | connections | requests/s | p50 ms | p99 ms | errors |
|---|---|---|---|---|---|
${results.map((r) => `| ${r.title} | ${share(r.title)} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`).join('\n')}
| **all** | ${Object.keys(runs).reduce((n, k) => n + share(k), 0)} | ${total.toFixed(0)} | | | ${errors} |

Resident memory (MiB) after the warm-up, at the peak and at the end (${samples.length} samples over ${elapsed.toFixed(0)} s):

| process | start | peak | end | end − start |
|---|---|---|---|---|
${names.map((n) => `| ${n} | ${first.rss[n].toFixed(0)} | ${peak(n).toFixed(0)} | ${last.rss[n].toFixed(0)} | ${(last.rss[n] - first.rss[n]).toFixed(0)} |`).join('\n')}
`;
  const series =
    duration >= 300
      ? `\nEvery sample (s: MiB per process):\n\n\`\`\`\n${samples
          .map(
            (s) =>
              `${((s.at - first.at) / 1000).toFixed(0).padStart(4)} s: ${names.map((n) => `${n}=${s.rss[n].toFixed(0)}`).join(' ')}`,
          )
          .join('\n')}\n\`\`\`\n`
      : '';
  console.log(section + series);
  record(section + series);
} finally {
  await stack.stop({ cleanUp: true });
}
