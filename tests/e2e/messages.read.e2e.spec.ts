import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('marking messages as read', () => {
  let world: World;
  let verona: number;
  let denmark: number;
  beforeAll(async () => {
    world = await newWorld();
    verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    const othello = world.as('othello');
    for (const [to, topic] of [
      ['Verona', 'one'],
      ['Verona', 'two'],
      ['Denmark', 'three'],
    ]) {
      await othello.post('/messages', { type: 'stream', to, topic, content: 'unread' });
    }
    await othello.post('/messages', { type: 'direct', to: [world.user('hamlet').id], content: 'unread too' });
  });

  const unread = async () => {
    const response = await world.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'unread' }],
    });
    return (response.body.messages as { type: string; subject: string }[]).map((m) =>
      m.type === 'private' ? 'dm' : m.subject,
    );
  };

  it('POST /mark_topic_as_read marks one topic', async () => {
    const response = await world.as('hamlet').post('/mark_topic_as_read', { stream_id: verona, topic_name: 'ONE' });
    expectSuccess(response, 'POST', '/mark_topic_as_read');
    expect(await unread()).toEqual(['two', 'three', 'dm']);
    expectError(
      await world.as('hamlet').post('/mark_topic_as_read', { stream_id: verona, topic_name: 'nothing here' }),
      400,
      'BAD_REQUEST',
      "No such topic 'nothing here'",
    );
  });

  it('POST /mark_stream_as_read marks one channel', async () => {
    const response = await world.as('hamlet').post('/mark_stream_as_read', { stream_id: verona });
    expectSuccess(response, 'POST', '/mark_stream_as_read');
    expect(await unread()).toEqual(['three', 'dm']);
    expectError(
      await world.as('polonius').post('/mark_stream_as_read', { stream_id: denmark }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('POST /mark_all_as_read marks everything', async () => {
    const response = await world.as('hamlet').post('/mark_all_as_read');
    expectSuccess(response, 'POST', '/mark_all_as_read');
    expect(response.body.complete).toBe(true);
    expect(await unread()).toEqual([]);
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  it("lists a channel's topics, newest first, with their latest message", async () => {
    const world = await newWorld();
    const send = (topic: string) =>
      world.as('hamlet').post('/messages', { type: 'stream', to: 'Rome', topic, content: 'x' });
    await send('aqueducts');
    const forum = (await send('forum')).body.id;
    const aqueducts = (await send('Aqueducts')).body.id;
    const general = (await send('')).body.id;
    const rome = (await world.as('hamlet').get('/get_stream_id', { stream: 'Rome' })).body.stream_id;
    const response = await world.as('hamlet').get(`/users/me/${rome}/topics`);
    expectSuccess(response, 'GET', `/users/me/${rome}/topics`);
    expect(response.body.topics).toEqual([
      { name: 'general chat', max_id: general },
      { name: 'Aqueducts', max_id: aqueducts },
      { name: 'forum', max_id: forum },
    ]);
    const raw = await world.as('hamlet').get(`/users/me/${rome}/topics`, { allow_empty_topic_name: true });
    expect(raw.body.topics[0]).toEqual({ name: '', max_id: general });
    expectError(await world.as('polonius').get(`/users/me/${rome}/topics`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });
});
