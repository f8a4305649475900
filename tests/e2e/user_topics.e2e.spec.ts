import { contracts } from '@confab/events';
import type { World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { publishEvent } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('POST /user_topics', () => {
  let world: World;
  let verona: number;
  let events: EventCapture;
  beforeAll(async () => {
    world = await newWorld();
    verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    events = await EventCapture.start(['user_topic.changed'], world.realm.realm_id);
  });
  afterAll(() => events.stop());

  it('sets each policy, also for topics without messages, and announces it', async () => {
    for (const policy of [1, 2, 3, 0]) {
      const response = await world
        .as('hamlet')
        .post('/user_topics', { stream_id: verona, topic: 'quiet topic', visibility_policy: policy });
      expectSuccess(response, 'POST', '/user_topics');
      const event = await events.next(
        'user_topic.changed',
        (p) => p.visibility_policy === policy && p.topic_name === 'quiet topic',
      );
      expect(event).toMatchObject({
        user_id: world.user('hamlet').id,
        stream_id: verona,
        last_updated: expect.any(Number),
      });
    }
  });

  it('reads the empty-topic display name as the empty topic', async () => {
    expectSuccess(
      await world.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'general chat', visibility_policy: 1 }),
      'POST',
      '/user_topics',
    );
    expect(
      await events.next('user_topic.changed', (p) => p.topic_name === '' && p.visibility_policy === 1),
    ).toMatchObject({ stream_id: verona });
  });

  it('refuses unknown policies and inaccessible channels', async () => {
    expectError(
      await world.as('hamlet').post('/user_topics', { stream_id: verona, topic: 't', visibility_policy: 7 }),
      400,
      'BAD_REQUEST',
      'Invalid visibility_policy',
    );
    expectError(
      await world.as('hamlet').post('/user_topics', { stream_id: 99999999, topic: 't', visibility_policy: 1 }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    const denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    expectError(
      await world.as('polonius').post('/user_topics', { stream_id: denmark, topic: 't', visibility_policy: 1 }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await world.as('hamlet').post('/user_topics', { stream_id: verona, visibility_policy: 1 }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'topic' argument",
    );
  });

  it('is changed automatically when a muted topic is joined with follow-on-send', async () => {
    await publishEvent(
      contracts.userSettingsChanged,
      {
        user_id: world.user('cordelia').id,
        realm_id: world.realm.realm_id,
        changed: ['automatically_follow_topics_policy'],
        settings: { automatically_follow_topics_policy: 2 },
      },
      world.realm.realm_id,
    );
    await world.as('cordelia').post('/user_topics', { stream_id: verona, topic: 'noisy', visibility_policy: 1 });
    const sent = await world
      .as('cordelia')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'noisy', content: 'I take it back' });
    expect(sent.body.automatic_new_visibility_policy).toBe(3);
    expect(
      await events.next(
        'user_topic.changed',
        (p) => p.user_id === world.user('cordelia').id && p.visibility_policy === 3,
      ),
    ).toMatchObject({ topic_name: 'noisy' });
  });

  it('follows topics for users mentioned in them', async () => {
    await world
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'mention follow', content: 'start' });
    await world
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'mention follow', content: 'hey @**aaron**' });
    expect(await events.next('user_topic.changed', (p) => p.user_id === world.user('aaron').id)).toMatchObject({
      topic_name: 'mention follow',
      visibility_policy: 3,
    });
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (the deprecated form)', () => {
  let world: World;
  let verona: number;
  beforeAll(async () => {
    world = await newWorld();
    verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
  });

  const policyOf = async (topic: string) => {
    const registered = await world.as('hamlet').post('/register', { fetch_event_types: ['user_topic'] });
    const entries = registered.body.user_topics as {
      stream_id: number;
      topic_name: string;
      visibility_policy: number;
    }[];
    return entries.find((e) => e.stream_id === verona && e.topic_name === topic)?.visibility_policy ?? 0;
  };

  it('mutes and unmutes by channel id or name, repeating either without error', async () => {
    const hamlet = world.as('hamlet');
    const path = '/users/me/subscriptions/muted_topics';
    expectSuccess(await hamlet.patch(path, { stream_id: verona, topic: 'legacy', op: 'add' }), 'PATCH', path);
    expect(await policyOf('legacy')).toBe(1);
    expectSuccess(await hamlet.patch(path, { stream: 'Verona', topic: 'legacy', op: 'add' }), 'PATCH', path);
    expect(await policyOf('legacy')).toBe(1);
    expectSuccess(await hamlet.patch(path, { stream: 'Verona', topic: 'legacy', op: 'remove' }), 'PATCH', path);
    expect(await policyOf('legacy')).toBe(0);
    expectSuccess(await hamlet.patch(path, { stream_id: verona, topic: 'legacy', op: 'remove' }), 'PATCH', path);
  });

  it('refuses what Zulip refuses', async () => {
    const hamlet = world.as('hamlet');
    const path = '/users/me/subscriptions/muted_topics';
    expectError(
      await hamlet.patch(path, { topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Missing 'stream_id' argument",
    );
    const both = await hamlet.patch(path, { stream_id: verona, stream: 'Verona', topic: 'x', op: 'add' });
    expectError(both, 400, 'BAD_REQUEST', 'Unsupported parameter combination: stream_id, stream');
    expect(both.body.parameters).toBe('stream_id, stream');
    expectError(
      await hamlet.patch(path, { stream: 'No such place', topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'No such place'",
    );
    expectError(
      await hamlet.patch(path, { stream_id: verona, topic: 'x', op: 'toggle' }),
      400,
      'BAD_REQUEST',
      'Invalid op',
    );
  });
});
