import type { ApiClient, World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

describe('GET /messages', () => {
  let world: World;
  let hamlet: ApiClient;
  const ids: number[] = [];
  let dmId: number;

  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
    for (let i = 0; i < 6; i++) {
      const from = i % 2 === 0 ? hamlet : world.as('othello');
      const response = await from.post('/messages', {
        type: 'stream',
        to: 'Denmark',
        topic: i < 3 ? 'castle' : 'ghost',
        content: `message ${i}`,
      });
      ids.push(response.body.id as number);
    }
    dmId = (
      await world.as('othello').post('/messages', { type: 'direct', to: [world.user('hamlet').id], content: 'psst' })
    ).body.id;
  });

  const get = (client: ApiClient, params: Record<string, unknown>) => client.get('/messages', params);
  const idsOf = (body: Record<string, any>) => (body.messages as { id: number }[]).map((m) => m.id);

  it('returns the newest messages of a channel with found_* fields', async () => {
    const response = await get(hamlet, {
      anchor: 'newest',
      num_before: 4,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expectSuccess(response, 'GET', '/messages');
    expect(idsOf(response.body)).toEqual(ids.slice(2));
    expect(response.body).toMatchObject({
      anchor: LARGER_THAN_MAX_MESSAGE_ID,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
  });

  it('pages around an anchor message', async () => {
    const response = await get(hamlet, {
      anchor: ids[2],
      num_before: 1,
      num_after: 1,
      narrow: [['stream', 'Denmark']],
    });
    expectSuccess(response, 'GET', '/messages');
    expect(idsOf(response.body)).toEqual([ids[1], ids[2], ids[3]]);
    expect(response.body).toMatchObject({
      anchor: ids[2],
      found_anchor: true,
      found_newest: false,
      found_oldest: false,
    });
    const excluded = await get(hamlet, {
      anchor: ids[2],
      num_before: 0,
      num_after: 2,
      include_anchor: false,
      narrow: [['stream', 'Denmark']],
    });
    expect(idsOf(excluded.body)).toEqual([ids[3], ids[4]]);
  });

  it('starts from the oldest message', async () => {
    const response = await get(hamlet, {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expect(idsOf(response.body)).toEqual(ids);
    expect(response.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: true });
  });

  it('narrows by topic, sender and direct-message conversation', async () => {
    const topic = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'stream', operand: 'Denmark' },
        { operator: 'topic', operand: 'GHOST' },
      ],
    });
    expect(idsOf(topic.body)).toEqual(ids.slice(3));
    const sender = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'sender', operand: 'othello@zulip.com' }],
    });
    expect(idsOf(sender.body)).toEqual([ids[1], ids[3], ids[5], dmId]);
    const bySenderId = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'sender', operand: world.user('othello').id },
        { operator: 'is', operand: 'dm' },
      ],
    });
    expect(idsOf(bySenderId.body)).toEqual([dmId]);
    const dm = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: 'othello@zulip.com' }],
    });
    expect(idsOf(dm.body)).toEqual([dmId]);
    const negated = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'stream', operand: 'Denmark' },
        { operator: 'topic', operand: 'ghost', negated: true },
      ],
    });
    expect(idsOf(negated.body)).toEqual(ids.slice(0, 3));
  });

  it('shows channel history to subscribers who joined later, as read and historical', async () => {
    await world.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'late' }] });
    const sent = await world
      .as('iago')
      .post('/messages', { type: 'stream', to: 'late', topic: 'before', content: 'early' });
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'late' }] });
    const response = await get(hamlet, {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'late' }],
    });
    expectSuccess(response, 'GET', '/messages');
    expect(response.body.messages).toEqual([
      expect.objectContaining({ id: sent.body.id, flags: ['read', 'historical'] }),
    ]);
    const mine = await get(hamlet, { anchor: 'newest', num_before: 100, num_after: 0 });
    expect(idsOf(mine.body)).not.toContain(sent.body.id);
  });

  it('anchors at the first unread message', async () => {
    const unread = await get(world.as('cordelia'), {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 2,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expect(unread.body.anchor).toBe(ids[0]);
    expect(idsOf(unread.body)).toEqual([ids[0], ids[1], ids[2]]);
    await world.as('cordelia').post('/messages/flags', { messages: ids.slice(0, 4), op: 'add', flag: 'read' });
    const later = await get(world.as('cordelia'), {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expect(later.body.anchor).toBe(ids[4]);
  });

  it('returns raw Markdown without apply_markdown and avatar URLs without client_gravatar', async () => {
    const response = await get(hamlet, {
      anchor: ids[0],
      num_before: 0,
      num_after: 0,
      apply_markdown: false,
      client_gravatar: false,
      narrow: [['channel', 'Denmark']],
    });
    expect(response.body.messages[0]).toMatchObject({
      content: 'message 0',
      content_type: 'text/x-markdown',
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
    });
  });

  it('searches message text', async () => {
    const response = await get(hamlet, {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'message 4' }],
    });
    expectSuccess(response, 'GET', '/messages');
    expect(idsOf(response.body)).toEqual([ids[4]]);
    expect(response.body.messages[0].match_content).toContain('<span class="highlight">');
  });

  it('fetches given message IDs', async () => {
    const response = await get(hamlet, { message_ids: [ids[1], dmId, 99999999] });
    expectSuccess(response, 'GET', '/messages');
    expect(idsOf(response.body)).toEqual([ids[1], dmId]);
  });

  it('refuses bad narrows, anchors and sizes', async () => {
    expectError(
      await get(hamlet, {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: [{ operator: 'bogus', operand: 'x' }],
      }),
      400,
      'BAD_NARROW',
      'Invalid narrow operator: unknown operator bogus',
    );
    expectError(
      await get(hamlet, {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: [{ operator: 'channel', operand: 'nowhere' }],
      }),
      400,
      'BAD_NARROW',
      'Invalid narrow operator: unknown channel nowhere',
    );
    expectError(
      await get(hamlet, { anchor: 'middle', num_before: 1, num_after: 0 }),
      400,
      'BAD_REQUEST',
      'Invalid anchor',
    );
    expectError(
      await get(hamlet, { anchor: 'newest', num_before: 3000, num_after: 3000 }),
      400,
      'BAD_REQUEST',
      'Too many messages requested (maximum 5000).',
    );
    expectError(
      await get(hamlet, { anchor: 10, num_before: 1, num_after: 1, include_anchor: false }),
      400,
      'BAD_REQUEST',
      'The anchor can only be excluded at an end of the range',
    );
  });
});

describe('GET /messages/{message_id}', () => {
  it('returns the message and its raw content to those who may see it', async () => {
    const world = await newWorld();
    const sent = await world
      .as('hamlet')
      .post('/messages', { type: 'direct', to: [world.user('othello').id], content: '**bold**' });
    const response = await world.as('othello').get(`/messages/${sent.body.id}`);
    expectSuccess(response, 'GET', '/messages/{message_id}');
    expect(response.body.raw_content).toBe('**bold**');
    expect(response.body.message).toMatchObject({
      id: sent.body.id,
      content: '<p><strong>bold</strong></p>',
      flags: [],
    });
    expectError(await world.as('cordelia').get(`/messages/${sent.body.id}`), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await world.as('cordelia').get('/messages/99999999999'), 400, 'BAD_REQUEST', 'Invalid message(s)');
  });
});

describe('POST /messages/flags', () => {
  it('stars and unstars, and marks read and unread', async () => {
    const world = await newWorld();
    const hamlet = world.as('hamlet');
    const sent = await world
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'flags', content: 'star me' });
    const id = sent.body.id as number;
    const star = await hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expectSuccess(star, 'POST', '/messages/flags');
    expect(star.body).toMatchObject({ messages: [id], ignored_because_not_subscribed_channels: [] });
    const starred = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'starred' }],
    });
    expect(starred.body.messages).toEqual([expect.objectContaining({ id, flags: ['starred'] })]);
    await hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    await hamlet.post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' });
    expect((await hamlet.get(`/messages/${id}`)).body.message.flags).toEqual(['read']);
    const unread = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'unread' }],
    });
    expect((unread.body.messages as { id: number }[]).map((m) => m.id)).not.toContain(id);
  });

  it('refuses unknown and non-editable flags and operations', async () => {
    const world = await newWorld();
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post('/messages/flags', { messages: [1], op: 'add', flag: 'bogus' }),
      400,
      'BAD_REQUEST',
      "Invalid flag: 'bogus'",
    );
    expectError(
      await hamlet.post('/messages/flags', { messages: [1], op: 'add', flag: 'mentioned' }),
      400,
      'BAD_REQUEST',
      "Flag not editable: 'mentioned'",
    );
    expectError(
      await hamlet.post('/messages/flags', { messages: [1], op: 'toggle', flag: 'read' }),
      400,
      'BAD_REQUEST',
      "Invalid message flag operation: 'toggle'",
    );
    expectError(
      await hamlet.post('/messages/flags', { messages: [99999999], op: 'add', flag: 'starred' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
  });

  it('stars channel history without a row and ignores unread marks outside subscribed channels', async () => {
    const world = await newWorld();
    await world.as('iago').delete('/users/me/subscriptions', { subscriptions: ['Verona'] });
    const sent = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'history', content: 'old news' });
    expect((await world.as('iago').get(`/messages/${sent.body.id}`)).body.message.flags).toEqual([
      'read',
      'historical',
    ]);
    const star = await world
      .as('iago')
      .post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'starred' });
    expectSuccess(star, 'POST', '/messages/flags');
    expect((await world.as('iago').get(`/messages/${sent.body.id}`)).body.message.flags).toEqual([
      'read',
      'starred',
      'historical',
    ]);
    const verona = (await world.as('iago').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    const unread = await world
      .as('iago')
      .post('/messages/flags', { messages: [sent.body.id], op: 'remove', flag: 'read' });
    expect(unread.body).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [verona] });
  });
});
