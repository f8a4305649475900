import { spawn } from 'node:child_process';
import { type World } from '@confab/devkit';
import { EventQueue, queuesOf, untilNewQueueWaiting } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { clientThrough, newWorld, useExtraProcesses } from './support/system';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let world: World;
beforeAll(async () => {
  world = await newWorld();
});
const start = useExtraProcesses();

/** Another events replica (sharing Redis and the broker queue) and a gateway that sends /register and /events to it. */
async function replicaWithGateway(overrides: Record<string, string> = {}) {
  const events = await start('events', overrides);
  const gateway = await start('gateway', { EVENTS_URL: events.url, EVENTS_CHANNEL_URL: events.channelUrl });
  const client = (name: Parameters<World['as']>[0]) => clientThrough(world, gateway.url, name);
  return { events, gateway, client };
}

async function send(content: string): Promise<number> {
  const response = await world
    .as('hamlet')
    .post('/messages', { type: 'stream', to: 'Verona', topic: 'replicas', content });
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

describe('GET /events with two replicas', () => {
  it('serves any queue from any replica, wakes polls across replicas, and survives losing one', async () => {
    const second = await replicaWithGateway();
    const viaFirst = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    // The same queue, polled through the second replica.
    const viaSecond = new EventQueue(second.client('othello'), viaFirst.queueId, viaFirst.registration);
    const waiting = viaSecond.poll();
    await viaSecond.untilWaiting();
    const first = await send('across replicas');
    expect((await waiting).map((e) => e.message.id)).toEqual([first]);
    viaFirst.lastEventId = viaSecond.lastEventId;

    // Not yet acknowledged when the second replica dies.
    const pending = await send('before the crash');
    await second.events.process.kill();
    const after = await send('after the crash');
    const ids: number[] = [];
    while (!ids.includes(after)) for (const e of await viaFirst.poll()) ids.push(e.message.id as number);
    expect(ids).toEqual([pending, after]);
  });

  it('keeps delivering while one replica restarts', async () => {
    const second = await replicaWithGateway();
    const queue = await EventQueue.register(second.client('othello'), { event_types: ['message'] });
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(`burst ${i}`));
    await second.events.process.stop();
    second.events.process.start();
    for (let i = 5; i < 10; i++) sent.push(await send(`burst ${i}`));
    const viaFirst = new EventQueue(world.as('othello'), queue.queueId, queue.registration);
    const got: number[] = [];
    while (got.length < sent.length) for (const e of await viaFirst.poll()) got.push(e.message.id as number);
    expect(got).toEqual(expect.arrayContaining(sent));
    expect(new Set(got).size).toBe(sent.length);
  });
});

describe('heartbeats and expiry (short timeouts)', () => {
  it('answers an idle long poll with a heartbeat, and forgets a queue nobody polls', async () => {
    const fast = await replicaWithGateway({
      EVENTS_HEARTBEAT_SECONDS: '1',
      EVENTS_HEARTBEAT_JITTER_SECONDS: '0',
      EVENTS_QUEUE_TIMEOUT_SECONDS: '3',
    });
    const polled = await EventQueue.register(fast.client('hamlet'), { event_types: ['message'] });
    const idle = await EventQueue.register(fast.client('hamlet'), { event_types: ['message'] });
    const started = Date.now();
    expect(await polled.poll()).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // Polling keeps a queue alive past the timeout; the idle one expires.
    for (let i = 0; i < 4; i++) await polled.poll();
    const gone = await idle.get({ dont_block: true });
    expectError(gone, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${idle.queueId}`, { queue_id: idle.queueId });
    expectSuccess(await polled.get({ dont_block: true }), 'GET', '/events');
  });
});

describe('long polls through the gateway', () => {
  it('outlive the gateway’s 30 s idle-socket timeout (heartbeats come after 45–55 s by default)', async () => {
    const slow = await replicaWithGateway({ EVENTS_HEARTBEAT_SECONDS: '33', EVENTS_HEARTBEAT_JITTER_SECONDS: '0' });
    const queue = await EventQueue.register(slow.client('hamlet'), { event_types: ['message'] });
    const started = Date.now();
    expect(await queue.poll()).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(32_000);
  });
});

describe('zulip-js', () => {
  it('callOnEachEvent receives messages as they are sent', async () => {
    const hamlet = world.user('othello');
    const script = `
      // The organization's own host (a key works only there), <subdomain>.localhost, names this machine.
      const dns = require('dns');
      const lookup = dns.lookup;
      dns.lookup = (host, options, callback) => lookup(host.endsWith('.localhost') ? '127.0.0.1' : host, options, callback);
      const zulip = require('zulip-js');
      (async () => {
        const client = await zulip({ username: ${JSON.stringify(hamlet.email)}, apiKey: ${JSON.stringify(hamlet.apiKey)}, realm: ${JSON.stringify(world.realm.url)} });
        client.callOnEachEvent((event) => console.log(JSON.stringify(event)), ['message']);
      })();
    `;
    const known = await queuesOf(hamlet.id);
    const child = spawn(process.execPath, ['-e', script], { cwd: __dirname, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Record<string, any>[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line));
    });
    try {
      // Once its queue exists and it is polling, send.
      await untilNewQueueWaiting(hamlet.id, known);
      const a = await send('for zulip-js 1');
      const b = await send('for zulip-js 2');
      const deadline = Date.now() + 20_000;
      while (lines.filter((e) => e.type === 'message').length < 2 && Date.now() < deadline) await sleep(100);
      expect(lines.filter((e) => e.type === 'message').map((e) => e.message.id)).toEqual([a, b]);
    } finally {
      child.kill();
    }
  });
});
