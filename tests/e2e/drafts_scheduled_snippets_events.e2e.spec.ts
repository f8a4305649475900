import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/** Drafts, scheduled messages and saved snippets in POST /register and as live events on the owner's queue. */
describe('drafts, scheduled messages and saved snippets through /register and /events', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('are in the initial state and reach the owner’s queue as Zulip events', async () => {
    const client = world.as('hamlet');
    const verona = (await client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const draftIds = (await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'before' }] }))
      .body.ids as number[];
    const types = ['drafts', 'scheduled_messages', 'saved_snippets'];
    const queue = await EventQueue.register(client, { event_types: types, fetch_event_types: types });
    expect(queue.registration.drafts).toEqual([expect.objectContaining({ id: draftIds[0], content: 'before' })]);
    expect(queue.registration.scheduled_messages).toEqual([]);
    expect(queue.registration.saved_snippets).toEqual([]);
    const other = await EventQueue.register(world.as('othello'), { event_types: types });

    const [draftId] = (await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'new' }] })).body
      .ids as number[];
    // The event of the draft made just before registering may also arrive (Zulip's register makes no promise).
    expect(await queue.next((e) => e.type === 'drafts' && e.op === 'add' && e.drafts[0].id === draftId)).toMatchObject({
      drafts: [{ id: draftId, type: '', to: [], topic: '', content: 'new' }],
    });
    expectSuccess(
      await client.patch(`/drafts/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'newer' } }),
      'PATCH',
      '/drafts/{draft_id}',
    );
    expect(await queue.next((e) => e.type === 'drafts' && e.op === 'update')).toMatchObject({
      draft: { id: draftId, content: 'newer' },
    });
    expectSuccess(await client.delete(`/drafts/${draftId}`), 'DELETE', '/drafts/{draft_id}');
    expect(await queue.next((e) => e.type === 'drafts' && e.op === 'remove')).toMatchObject({ draft_id: draftId });

    const at = Math.floor(Date.now() / 1000) + 3600;
    const scheduledId = (
      await client.post('/scheduled_messages', {
        type: 'stream',
        to: String(verona),
        topic: 'later',
        content: 'hello',
        scheduled_delivery_timestamp: at,
      })
    ).body.scheduled_message_id as number;
    expect(await queue.next((e) => e.type === 'scheduled_messages' && e.op === 'add')).toMatchObject({
      scheduled_messages: [
        {
          scheduled_message_id: scheduledId,
          type: 'stream',
          to: verona,
          topic: 'later',
          content: 'hello',
          failed: false,
        },
      ],
    });
    await client.patch(`/scheduled_messages/${scheduledId}`, { content: 'hello again' });
    expect(await queue.next((e) => e.type === 'scheduled_messages' && e.op === 'update')).toMatchObject({
      scheduled_message: {
        scheduled_message_id: scheduledId,
        content: 'hello again',
        scheduled_delivery_timestamp: at,
      },
    });
    await client.delete(`/scheduled_messages/${scheduledId}`);
    expect(await queue.next((e) => e.type === 'scheduled_messages' && e.op === 'remove')).toMatchObject({
      scheduled_message_id: scheduledId,
    });

    const snippetId = (await client.post('/saved_snippets', { title: 'Hi', content: 'Hello!' })).body
      .saved_snippet_id as number;
    expect(await queue.next((e) => e.type === 'saved_snippets' && e.op === 'add')).toMatchObject({
      saved_snippet: { id: snippetId, title: 'Hi', content: 'Hello!' },
    });
    await client.patch(`/saved_snippets/${snippetId}`, { title: 'Hey' });
    expect(await queue.next((e) => e.type === 'saved_snippets' && e.op === 'update')).toMatchObject({
      saved_snippet: { id: snippetId, title: 'Hey' },
    });
    await client.delete(`/saved_snippets/${snippetId}`);
    expect(await queue.next((e) => e.type === 'saved_snippets' && e.op === 'remove')).toMatchObject({
      saved_snippet_id: snippetId,
    });

    // Nothing of this reached another user's queue.
    expect((await other.drain()).filter((e) => e.type !== 'heartbeat')).toEqual([]);
  });
});
