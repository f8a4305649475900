import type { World } from '@confab/devkit';
import { flutterParseErrors } from './support/client-models';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('polls: widgets and POST /submessage', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('creates a poll from /poll, lets readers vote, and tells everyone as the apps expect', async () => {
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['message', 'submessage'] });
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['submessage'] });
    const sent = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'lunch',
      content: '/poll Where to eat?\nPizza\n- Sushi',
    });
    expectSuccess(sent, 'POST', '/messages');
    const id = sent.body.id as number;
    const widget = await othello.next((e) => e.type === 'submessage' && e.message_id === id);
    expect(widget).toMatchObject({
      msg_type: 'widget',
      sender_id: world.user('hamlet').id,
      submessage_id: expect.any(Number),
    });
    expect(JSON.parse(widget.content as string)).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'Where to eat?', options: ['Pizza', 'Sushi'] },
    });
    expect(flutterParseErrors('SubmessageEvent', widget)).toEqual([]);

    const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
    expectSuccess(
      await world.as('othello').post('/submessage', { message_id: id, msg_type: 'widget', content: vote }),
      'POST',
      '/submessage',
      { undocumented: true },
    );
    const voted = await hamlet.next((e) => e.type === 'submessage' && e.message_id === id && e.content === vote);
    expect(voted.sender_id).toBe(world.user('othello').id);

    const read = await world.as('cordelia').get(`/messages/${id}`);
    const submessages = read.body.message.submessages as Record<string, unknown>[];
    expect(submessages).toEqual([
      expect.objectContaining({ msg_type: 'widget', message_id: id, sender_id: world.user('hamlet').id }),
      expect.objectContaining({ msg_type: 'widget', content: vote, sender_id: world.user('othello').id }),
    ]);
    const listed = await world.as('cordelia').get('/messages', {
      anchor: id,
      num_before: 0,
      num_after: 0,
    });
    expect((listed.body.messages as Record<string, any>[])[0]!.submessages).toHaveLength(2);
    await othello.delete();
    await hamlet.delete();
  });

  it('refuses what Zulip refuses', async () => {
    const poll = (
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'q', content: '/poll Tea?' })
    ).body.id as number;
    const plain = (
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'q', content: 'no widget' })
    ).body.id as number;
    const submit = (who: 'hamlet' | 'othello', messageId: number, content: string) =>
      world.as(who).post('/submessage', { message_id: messageId, msg_type: 'widget', content });
    expectError(await submit('othello', poll, '{not json'), 400, 'BAD_REQUEST', 'Invalid json for submessage');
    expectError(
      await submit('othello', poll, JSON.stringify({ type: 'question', question: 'Coffee?' })),
      400,
      'BAD_REQUEST',
      "You can't edit a question unless you are the author.",
    );
    expectError(
      await submit('othello', poll, JSON.stringify({ type: 'vote', key: 'x', vote: 7 })),
      400,
      'BAD_REQUEST',
      'Invalid poll data',
    );
    expectError(
      await submit('othello', plain, JSON.stringify({ anything: true })),
      400,
      'BAD_REQUEST',
      'You cannot attach a submessage to this message.',
    );
    expectError(await submit('othello', 999999999, '{}'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectSuccess(
      await submit('hamlet', poll, JSON.stringify({ type: 'question', question: 'Tea or coffee?' })),
      'POST',
      '/submessage',
      { undocumented: true },
    );
  });

  it('creates to-do lists from /todo, checking their updates', async () => {
    const sent = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'chores',
      content: '/todo Moving day\n- Pack books: the heavy ones first\n- Return keys',
    });
    const id = sent.body.id as number;
    const read = await world.as('othello').get(`/messages/${id}`);
    const [widget] = read.body.message.submessages as { content: string }[];
    expect(JSON.parse(widget!.content)).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Moving day',
        tasks: [
          { task: 'Pack books', desc: 'the heavy ones first' },
          { task: 'Return keys', desc: '' },
        ],
      },
    });
    const submit = (who: 'hamlet' | 'othello', content: unknown) =>
      world.as(who).post('/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(content) });
    expectSuccess(await submit('othello', { type: 'strike', key: '1,canned' }), 'POST', '/submessage', {
      undocumented: true,
    });
    expectError(await submit('othello', { type: 'strike', key: 5 }), 400, 'BAD_REQUEST', 'Invalid todo data');
    expectError(
      await submit('othello', { type: 'new_task_list_title', title: 'Mine now' }),
      400,
      'BAD_REQUEST',
      "You can't edit the task list title unless you are the author.",
    );
  });
});
