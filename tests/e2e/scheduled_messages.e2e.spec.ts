import type { ApiClient, World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { metricsUrlsOf, newWorld } from './support/system';

interface Scheduled {
  scheduled_message_id: number;
  type: string;
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

async function scheduled(client: ApiClient): Promise<Scheduled[]> {
  const response = await client.get('/scheduled_messages');
  expectSuccess(response, 'GET', '/scheduled_messages');
  return response.body.scheduled_messages as Scheduled[];
}

async function schedule(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const response = await client.post('/scheduled_messages', params);
  expectSuccess(response, 'POST', '/scheduled_messages');
  return response.body.scheduled_message_id as number;
}

/** The newest messages the user can read with exactly this content. */
async function newestWith(client: ApiClient, content: string): Promise<Record<string, any>[]> {
  const all = await client.get('/messages', { anchor: 'newest', num_before: 500, num_after: 0, apply_markdown: false });
  expect(all.status).toBe(200);
  return (all.body.messages as Record<string, any>[]).filter((m) => m.content === content);
}

/** Waits (bounded) until `check` holds. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}

describe('scheduled messages', () => {
  let world: World;
  let verona: number;
  let denmark: number;
  let events: EventCapture;
  beforeAll(async () => {
    world = await newWorld();
    verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    events = await EventCapture.start(['scheduled_message.*'], world.realm.realm_id);
  });
  afterAll(() => events.stop());

  describe('POST and GET', () => {
    it('schedules channel and direct messages, lists them soonest first and announces them', async () => {
      const client = world.as('hamlet');
      const hamlet = world.user('hamlet');
      const othello = world.user('othello');
      const cordelia = world.user('cordelia');
      const later = inSeconds(3600);
      const sooner = inSeconds(1800);
      const channelId = await schedule(client, {
        type: 'channel',
        to: String(verona),
        topic: 'plans',
        content: 'meet **at noon**',
        scheduled_delivery_timestamp: later,
      });
      const directId = await schedule(client, {
        type: 'direct',
        to: JSON.stringify([othello.id]),
        content: 'psst',
        scheduled_delivery_timestamp: sooner,
      });
      const groupId = await schedule(client, {
        type: 'private',
        to: JSON.stringify([othello.id, cordelia.id]),
        topic: 'ignored for direct messages',
        content: 'all of us',
        scheduled_delivery_timestamp: later + 60,
      });
      const list = await scheduled(client);
      expect(list).toEqual([
        {
          scheduled_message_id: directId,
          type: 'private',
          to: [othello.id],
          content: 'psst',
          rendered_content: '<p>psst</p>',
          scheduled_delivery_timestamp: sooner,
          failed: false,
        },
        {
          scheduled_message_id: channelId,
          type: 'stream',
          to: verona,
          topic: 'plans',
          content: 'meet **at noon**',
          rendered_content: '<p>meet <strong>at noon</strong></p>',
          scheduled_delivery_timestamp: later,
          failed: false,
        },
        {
          scheduled_message_id: groupId,
          type: 'private',
          to: [hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b),
          content: 'all of us',
          rendered_content: '<p>all of us</p>',
          scheduled_delivery_timestamp: later + 60,
          failed: false,
        },
      ]);
      const added = await events.next('scheduled_message.added', (p) =>
        p.scheduled_messages.some((m: Scheduled) => m.scheduled_message_id === channelId),
      );
      expect(added).toEqual({ user_id: hamlet.id, scheduled_messages: [list[1]] });
      expect(await scheduled(world.as('othello'))).toEqual([]);
      const state = await internalRequest(
        'messaging',
        'GET',
        `/users/${hamlet.id}/initial-state?fetch_event_types=["scheduled_messages"]`,
      );
      expect(state.body.scheduled_messages).toEqual(list);
    });

    it.each([
      [
        { type: 'stream', to: '1', topic: 't', content: 'x', scheduled_delivery_timestamp: 1_000 },
        'Scheduled delivery time must be in the future.',
      ],
      [{ type: 'email', to: '1', topic: 't', content: 'x', scheduled_delivery_timestamp: 0 }, 'Invalid type'],
      [{ type: 'stream', to: 'Verona', topic: 't', content: 'x' }, "Missing 'scheduled_delivery_timestamp' argument"],
      [{ type: 'stream', to: 'Verona', topic: 't', content: 'x', future: true }, 'Invalid data type for channel ID'],
      [{ type: 'direct', to: 'hamlet', content: 'x', future: true }, 'Invalid data type for recipients'],
      [{ type: 'direct', to: '["a@b.c"]', content: 'x', future: true }, 'Recipient list may only contain user IDs'],
      [{ type: 'direct', to: '[999999]', content: 'x', future: true }, 'Invalid user ID 999999'],
      [{ type: 'stream', to: 'VERONA', content: 'x', future: true }, 'Invalid data type for channel ID'],
      [{ type: 'stream', to: 'VERONA_ID', content: 'x', future: true }, 'Missing topic'],
      [{ type: 'stream', to: 'VERONA_ID', topic: 't', content: '  ', future: true }, 'Message must not be empty'],
    ])('refuses %j: %s', async (raw, msg) => {
      const { future, ...params } = raw as Record<string, unknown>;
      if (future) params.scheduled_delivery_timestamp = inSeconds(600);
      if (params.to === 'VERONA_ID') params.to = String(verona);
      const response = await world.as('cordelia').post('/scheduled_messages', params);
      expect({ status: response.status, result: response.body.result, msg: response.body.msg }).toEqual({
        status: 400,
        result: 'error',
        msg,
      });
      expect(await scheduled(world.as('cordelia'))).toEqual([]);
    });

    it('answers ids beyond any stored one as unknown, never with a server error', async () => {
      const client = world.as('cordelia');
      const missing = 'Scheduled message does not exist';
      expectError(await client.patch('/scheduled_messages/99999999999', { content: 'x' }), 404, 'BAD_REQUEST', missing);
      expectError(await client.delete('/scheduled_messages/99999999999'), 404, 'BAD_REQUEST', missing);
      const at = inSeconds(600);
      const channel = await client.post('/scheduled_messages', {
        type: 'stream',
        to: '99999999999',
        topic: 't',
        content: 'x',
        scheduled_delivery_timestamp: at,
      });
      expect({ status: channel.status, code: channel.body.code }).toEqual({
        status: 400,
        code: 'STREAM_DOES_NOT_EXIST',
      });
      expectError(
        await client.post('/scheduled_messages', {
          type: 'direct',
          to: '[99999999999]',
          content: 'x',
          scheduled_delivery_timestamp: at,
        }),
        400,
        'BAD_REQUEST',
        'Invalid user ID 99999999999',
      );
    });

    it('refuses a channel that does not exist with STREAM_DOES_NOT_EXIST and its id', async () => {
      expectError(
        await world.as('cordelia').post('/scheduled_messages', {
          type: 'stream',
          to: '987654',
          topic: 't',
          content: 'x',
          scheduled_delivery_timestamp: inSeconds(600),
        }),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel with ID '987654' does not exist",
        { stream_id: 987654 },
      );
    });
  });

  describe('PATCH', () => {
    let client: ApiClient;
    let id: number;
    beforeAll(async () => {
      client = world.as('iago');
      id = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'start',
        content: 'original',
        scheduled_delivery_timestamp: inSeconds(3600),
      });
    });
    const mine = async () => (await scheduled(client)).find((m) => m.scheduled_message_id === id)!;

    it.each([
      [{}, 'Nothing to change'],
      [{ type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
      [{ type: 'channel', to: '1' }, 'Topic required when updating scheduled message type to stream.'],
      [{ scheduled_delivery_timestamp: 1_000 }, 'Scheduled delivery time must be in the future.'],
      [{ to: '[1]' }, 'Invalid data type for channel ID'],
      [{ type: 'direct', to: '[424242]' }, 'Invalid user ID 424242'],
      [{ content: '' }, 'Message must not be empty'],
    ])('refuses %j: %s and changes nothing', async (params, msg) => {
      expectError(await client.patch(`/scheduled_messages/${id}`, params), 400, 'BAD_REQUEST', msg);
      expect(await mine()).toMatchObject({ topic: 'start', content: 'original', type: 'stream', to: verona });
    });

    it('refuses a channel that does not exist with its id', async () => {
      expectError(
        await client.patch(`/scheduled_messages/${id}`, { to: '777777' }),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel with ID '777777' does not exist",
        { stream_id: 777777 },
      );
    });

    it('answers 404 for an unknown scheduled message or one of somebody else', async () => {
      const missing = 'Scheduled message does not exist';
      expectError(await client.patch('/scheduled_messages/999999', { content: 'x' }), 404, 'BAD_REQUEST', missing);
      expectError(
        await world.as('hamlet').patch(`/scheduled_messages/${id}`, { content: 'x' }),
        404,
        'BAD_REQUEST',
        missing,
      );
      expectError(await world.as('hamlet').delete(`/scheduled_messages/${id}`), 404, 'BAD_REQUEST', missing);
    });

    it('edits content, topic, channel, type and time, and announces each edit', async () => {
      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { content: 'edited *text*' }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect(await mine()).toMatchObject({
        content: 'edited *text*',
        rendered_content: '<p>edited <em>text</em></p>',
        topic: 'start',
      });
      const update = await events.next(
        'scheduled_message.updated',
        (p) => p.scheduled_message.content === 'edited *text*',
      );
      expect(update).toEqual({ user_id: world.user('iago').id, scheduled_message: await mine() });

      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { topic: 'x'.repeat(70) }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect((await mine()).topic).toBe(`${'x'.repeat(57)}...`);

      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { to: String(denmark) }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect(await mine()).toMatchObject({ type: 'stream', to: denmark, content: 'edited *text*' });

      const othello = world.user('othello').id;
      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { type: 'direct', to: JSON.stringify([othello]) }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      const direct = await mine();
      expect(direct).toMatchObject({ type: 'private', to: [othello] });
      expect(direct.topic).toBeUndefined();
      // A topic alone is ignored for a direct message.
      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { topic: 'nope' }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect((await mine()).topic).toBeUndefined();

      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { type: 'stream', to: String(verona), topic: 'back' }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect(await mine()).toMatchObject({ type: 'stream', to: verona, topic: 'back' });

      const time = inSeconds(7200);
      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: time }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect((await mine()).scheduled_delivery_timestamp).toBe(time);
    });

    it('deletes a scheduled message once and announces it', async () => {
      const other = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'gone',
        content: 'never',
        scheduled_delivery_timestamp: inSeconds(3600),
      });
      expectSuccess(
        await client.delete(`/scheduled_messages/${other}`),
        'DELETE',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect((await scheduled(client)).map((m) => m.scheduled_message_id)).not.toContain(other);
      expect(await events.next('scheduled_message.removed', (p) => p.scheduled_message_id === other)).toEqual({
        user_id: world.user('iago').id,
        scheduled_message_id: other,
      });
      expectError(
        await client.delete(`/scheduled_messages/${other}`),
        404,
        'BAD_REQUEST',
        'Scheduled message does not exist',
      );
    });
  });

  describe('delivery', () => {
    it('sends the message once at its time, as POST /messages would, and removes it from the list', async () => {
      const client = world.as('othello');
      const content = `scheduled delivery ${Date.now()}`;
      const id = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'on time',
        content,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      const delivered = await eventually(
        () => newestWith(world.as('hamlet'), content),
        (m) => m.length > 0,
      );
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({
        sender_id: world.user('othello').id,
        subject: 'on time',
        stream_id: verona,
      });
      // Delivered with the others of its due time: one event per owner says which of theirs were delivered.
      const announced = await events.next('scheduled_message.delivered', (p) => p.scheduled_message_ids.includes(id));
      expect(announced).toEqual({ user_id: world.user('othello').id, scheduled_message_ids: [id] });
      expect((await scheduled(client)).map((m) => m.scheduled_message_id)).not.toContain(id);
      expectError(
        await client.patch(`/scheduled_messages/${id}`, { content: 'too late' }),
        400,
        'BAD_REQUEST',
        'Scheduled message was already sent',
      );
      // The workers report how late deliveries were, and the queue's depth, on their metrics ports (the one that
      // delivered it, with replicas). Once none has a job running or waiting, no second delivery can come.
      const idle = (state: string) =>
        new RegExp(`job_queue_depth\\{[^}]*queue="scheduled-messages",state="${state}"[^}]*\\} 0\\n`);
      const metrics = await eventually(
        () => Promise.all(metricsUrlsOf('messaging-worker').map(async (url) => (await fetch(`${url}/metrics`)).text())),
        (texts) => texts.every((text) => idle('active').test(text) && idle('waiting').test(text)),
      );
      for (const text of metrics) expect(text).toMatch(idle('active'));
      expect(await newestWith(world.as('hamlet'), content)).toHaveLength(1);
      const lateness = /job_lateness_seconds_count\{[^}]*queue="scheduled-messages"[^}]*\} [1-9]/;
      expect(metrics.filter((text) => lateness.test(text)).length).toBeGreaterThan(0);
      for (const text of metrics)
        expect(text).toMatch(/job_queue_depth\{[^}]*queue="scheduled-messages",state="delayed"[^}]*\} \d+/);
    });

    it('delivers a direct message to its recipients', async () => {
      const content = `scheduled direct ${Date.now()}`;
      await schedule(world.as('prospero'), {
        type: 'direct',
        to: JSON.stringify([world.user('polonius').id]),
        content,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      const received = await eventually(
        () => newestWith(world.as('polonius'), content),
        (m) => m.length > 0,
      );
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ sender_id: world.user('prospero').id, type: 'private' });
    });

    it('moves delivery when the time is edited, and sends nothing once deleted', async () => {
      const client = world.as('aaron');
      const moved = `moved ${Date.now()}`;
      const deleted = `deleted ${Date.now()}`;
      const movedId = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'later',
        content: moved,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      const deletedId = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'never',
        content: deleted,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      expectSuccess(
        await client.patch(`/scheduled_messages/${movedId}`, { scheduled_delivery_timestamp: inSeconds(3600) }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expectSuccess(
        await client.delete(`/scheduled_messages/${deletedId}`),
        'DELETE',
        '/scheduled_messages/{scheduled_message_id}',
      );
      // A message due with them (scheduled after them, so not earlier) marks when their time has come and gone.
      const marker = `marker ${Date.now()}`;
      const markerId = await schedule(client, {
        type: 'stream',
        to: String(verona),
        topic: 'later',
        content: marker,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      expect(
        await eventually(
          () => newestWith(client, marker),
          (m) => m.length > 0,
        ),
      ).toHaveLength(1);
      expect(await newestWith(client, moved)).toEqual([]);
      expect(await newestWith(client, deleted)).toEqual([]);
      const pending = (await scheduled(client)).map((m) => m.scheduled_message_id);
      expect(pending).toEqual([movedId]);
      expect(pending).not.toContain(markerId);
      // Moved back to soon, it is sent.
      expectSuccess(
        await client.patch(`/scheduled_messages/${movedId}`, { scheduled_delivery_timestamp: inSeconds(2) }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect(
        await eventually(
          () => newestWith(client, moved),
          (m) => m.length > 0,
        ),
      ).toHaveLength(1);
    });

    it('checks permissions at delivery time: a refused send marks it failed, and a new time makes it pending again', async () => {
      const client = world.as('desdemona');
      expectSuccess(
        await client.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'scheduled-private' }],
          invite_only: true,
        }),
        'POST',
        '/users/me/subscriptions',
      );
      const channel = (await client.get('/get_stream_id', { stream: 'scheduled-private' })).body.stream_id as number;
      const content = `failing ${Date.now()}`;
      const id = await schedule(client, {
        type: 'stream',
        to: String(channel),
        topic: 'secret',
        content,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      expectSuccess(
        await client.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['scheduled-private']) }),
        'DELETE',
        '/users/me/subscriptions',
      );
      const list = await eventually(
        () => scheduled(client),
        (l) => l.some((m) => m.scheduled_message_id === id && m.failed),
      );
      expect(list.find((m) => m.scheduled_message_id === id)).toMatchObject({ failed: true, content });
      const update = await events.next(
        'scheduled_message.updated',
        (p) => p.scheduled_message.scheduled_message_id === id && p.scheduled_message.failed === true,
      );
      expect(update.user_id).toBe(world.user('desdemona').id);
      expect(await newestWith(client, content)).toEqual([]);
      // The Notification Bot tells the sender why, in a direct message (Zulip's
      // send_failed_scheduled_message_notification), with the time every reader sees in their own time zone.
      const dueAt = new Date(list.find((m) => m.scheduled_message_id === id)!.scheduled_delivery_timestamp * 1000);
      const fromBot = () =>
        client
          .get('/messages', {
            anchor: 'newest',
            num_before: 20,
            num_after: 0,
            apply_markdown: false,
            narrow: JSON.stringify([{ operator: 'sender', operand: 'notification-bot@zulip.com' }]),
          })
          .then((r) => r.body.messages as Record<string, any>[]);
      const time = `<time:${dueAt.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
      const notices = await eventually(fromBot, (m) => m.some((x) => String(x.content).includes(time)));
      expect(notices.find((x) => String(x.content).includes(time))).toMatchObject({
        type: 'private',
        content:
          `The message you scheduled for ${time} was not sent because of the following error:\n\n` +
          "> Not authorized to send to channel 'scheduled-private'\n\n[View scheduled messages](#scheduled)",
      });
      const recipients = notices.find((x) => String(x.content).includes(time))!.display_recipient as {
        email: string;
      }[];
      expect(recipients.map((r) => r.email).sort()).toEqual([
        world.user('desdemona').email,
        'notification-bot@zulip.com',
      ]);

      // A failed message needs a new time.
      expectError(
        await client.patch(`/scheduled_messages/${id}`, { content: 'again' }),
        400,
        'BAD_REQUEST',
        'Scheduled delivery time must be in the future.',
      );
      expectSuccess(
        await client.patch(`/scheduled_messages/${id}`, {
          to: String(verona),
          scheduled_delivery_timestamp: inSeconds(2),
        }),
        'PATCH',
        '/scheduled_messages/{scheduled_message_id}',
      );
      expect((await scheduled(client)).find((m) => m.scheduled_message_id === id)).toMatchObject({
        failed: false,
        to: verona,
      });
      expect(
        await eventually(
          () => newestWith(client, content),
          (m) => m.length > 0,
        ),
      ).toHaveLength(1);
    });
  });
});
