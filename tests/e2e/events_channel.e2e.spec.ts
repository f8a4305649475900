import { request } from 'node:http';
import { freePort, waitReady, type World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { clientThrough, newWorld, system, useExtraProcesses } from './support/system';

// The events channel (docs/architecture.md, "The gateway"): the gateway sends GET/DELETE /events as frames over
// persistent connections to the events service instead of HTTP requests. These tests run an events service and a
// gateway of their own, so that which way a poll went can be told: a gateway whose HTTP forwarder points nowhere can
// only poll over the channel, and an events service's own metrics count the polls it served.

jest.setTimeout(120_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});
const start = useExtraProcesses();
const clientOf = (gatewayUrl: string, name: Parameters<World['as']>[0]) => clientThrough(world, gatewayUrl, name);

async function send(content: string): Promise<number> {
  const response = await world
    .as('hamlet')
    .post('/messages', { type: 'stream', to: 'Verona', topic: 'channel', content });
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

/** GET /events answered by an events process, from its own metrics (a restart starts them again from zero). */
async function pollsServedBy(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('http_requests_total{') && line.includes('method="GET"') && line.includes('route="/events"'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

/** Repeats a non-blocking poll until `done` says so (the channel connects, reconnects), failing after 30 s. */
async function pollUntil(queue: EventQueue, done: (status: number) => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await queue.get({ dont_block: true });
    if (await done(response.status)) return;
    if (Date.now() > deadline) throw new Error(`the poll did not go the expected way (last status ${response.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a gateway whose events requests can only go over the channel', () => {
  let gatewayUrl: string;
  let queue: EventQueue;
  beforeAll(async () => {
    const events = await start('events');
    // Nothing listens on the HTTP forwarder's port: what succeeds went over the channel.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    gatewayUrl = (await start('gateway', { EVENTS_URL: nowhere, EVENTS_CHANNEL_URL: events.channelUrl })).url;
    const registered = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    queue = new EventQueue(clientOf(gatewayUrl, 'othello'), registered.queueId, registered.registration);
    await pollUntil(queue, async (status) => status === 200);
  });

  it('delivers events to a waiting poll, with the gateway’s headers and the service’s answer', async () => {
    const waiting = queue.poll();
    await queue.untilWaiting();
    const id = await send('over the channel');
    expect((await waiting).map((e) => e.message.id)).toEqual([id]);

    const answer = await queue.get({ dont_block: true, colour: 'blue' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '', events: [], ignored_parameters_unsupported: ['colour'] });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-request-id']).toMatch(/^[\w.-]+$/);
    expect(Number(answer.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(Number(answer.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  });

  it('answers the events service’s errors as they are', async () => {
    const client = clientOf(gatewayUrl, 'othello');
    const bad = await client.get('/events', { queue_id: 'no-such-queue', last_event_id: -1 });
    expectError(bad, 400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: no-such-queue', { queue_id: 'no-such-queue' });
    const noLast = await client.get('/events', { queue_id: queue.queueId });
    expectError(noLast, 400, 'BAD_REQUEST', "Missing 'last_event_id' argument");
  });

  it('ends the poll in the events service when the client goes away', async () => {
    const user = world.user('othello');
    const url = new URL(`/api/v1/events?queue_id=${queue.queueId}&last_event_id=${queue.lastEventId}`, gatewayUrl);
    const req = request(url, {
      headers: {
        host: world.host,
        authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`,
      },
    });
    req.on('error', () => undefined);
    req.end();
    const generation = await queue.untilWaiting();
    req.destroy();
    // The waiting mark goes once the events service ended the poll (it answers nobody).
    await queue.untilNotWaiting();
    // The queue is still there and polls on.
    expect(generation).toBeGreaterThan(0);
    expect(await queue.drain()).toEqual([]);
  });

  it('deletes a queue (DELETE /events with its parameters in the query)', async () => {
    const registered = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const client = clientOf(gatewayUrl, 'othello');
    const deleted = await client.delete('/events', { queue_id: registered.queueId }, { encoding: 'query' });
    expectSuccess(deleted, 'DELETE', '/events');
    const gone = await client.get('/events', { queue_id: registered.queueId, last_event_id: -1, dont_block: true });
    expectError(gone, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queueId}`, {
      queue_id: registered.queueId,
    });
  });
});

describe('the channel while its events service restarts', () => {
  it('answers waiting polls, falls back to HTTP while it is down, and reconnects', async () => {
    const events = await start('events');
    // HTTP goes to the shared system's events service, the channel to this one: their metrics tell them apart.
    const gateway = await start('gateway', {
      EVENTS_URL: system().serviceUrls.events!,
      EVENTS_CHANNEL_URL: events.channelUrl,
      CONFAB_EVENTS_CHANNEL_CONNECTIONS: '2',
    });
    const registered = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const queue = new EventQueue(clientOf(gateway.url, 'othello'), registered.queueId, registered.registration);
    await pollUntil(queue, async () => (await pollsServedBy(events.metricsUrl)) > 0);

    // A graceful stop answers the waiting poll before the channel closes.
    const waiting = queue.get({});
    await queue.untilWaiting();
    await events.process.stop();
    const answered = await waiting;
    expect({ status: answered.status, events: answered.body.events }).toEqual({ status: 200, events: [] });

    // Down: the HTTP forwarder serves the polls.
    // (The message reaches the queue a moment after the send answers: wait for it rather than poll once.)
    const id = await send('while the channel is down');
    expect((await queue.next((e) => e.type === 'message' && e.message.id === id)).message.content).toContain(
      'while the channel is down',
    );

    // Back: the gateway reconnects and polls go over the channel again.
    events.process.start();
    await waitReady(`${events.url}/readyz`, 180_000, 'events', events.process);
    await pollUntil(queue, async () => (await pollsServedBy(events.metricsUrl)) > 0);

    // Killed with a poll waiting: that poll fails as the HTTP forwarder's would (502), the next one falls back.
    const cut = queue.get({});
    await queue.untilWaiting();
    await events.process.kill();
    expectError(await cut, 502, 'BAD_GATEWAY', 'Bad gateway: the service did not answer');
    const later = await send('after the kill');
    expect((await queue.next((e) => e.type === 'message' && e.message.id === later)).message.content).toContain(
      'after the kill',
    );
  });
});
