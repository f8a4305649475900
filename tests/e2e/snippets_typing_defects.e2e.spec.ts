import type { World } from '@confab/devkit';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Defects found by the probe of issue 30 (finding 8).

describe('PATCH /saved_snippets/{saved_snippet_id} for a snippet that does not exist', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('answers the error without fields as with them', async () => {
    const hamlet = world.as('hamlet');
    const missing = 'Saved snippet does not exist.';
    expectError(await hamlet.patch('/saved_snippets/987654'), 404, 'BAD_REQUEST', missing);
    expectError(await hamlet.patch('/saved_snippets/987654', { title: 'x' }), 404, 'BAD_REQUEST', missing);
    // Someone else's snippet does not exist for this user either.
    const created = await world.as('othello').post('/saved_snippets', { title: 'mine', content: 'text' });
    expectSuccess(created, 'POST', '/saved_snippets');
    const othersId = created.body.saved_snippet_id as number;
    expectError(await hamlet.patch(`/saved_snippets/${othersId}`), 404, 'BAD_REQUEST', missing);
    // The owner's edit without fields is still a successful no-op.
    expectSuccess(
      await world.as('othello').patch(`/saved_snippets/${othersId}`),
      'PATCH',
      '/saved_snippets/{saved_snippet_id}',
    );
  });
});

describe('POST /typing right after a recipient changes receives_typing_notifications', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const typingOf = (queue: EventQueue) => queue.seen.filter((e: ClientEvent) => e.type === 'typing');

  /** Polls `queue` until it has seen `count` typing events. */
  async function untilTypings(queue: EventQueue, count: number): Promise<ClientEvent[]> {
    while (typingOf(queue).length < count) await queue.poll();
    return typingOf(queue);
  }

  it('follows the setting in force: off stops the very next notification, on lets it through', async () => {
    const hamlet = world.as('hamlet');
    const othello = world.as('othello');
    const to = [world.user('othello').id, world.user('cordelia').id];
    const othelloQueue = await EventQueue.register(othello, { event_types: ['typing'] });
    // Cordelia always receives them: once her queue has one, Othello's would have it too (one fan-out).
    const cordeliaQueue = await EventQueue.register(world.as('cordelia'), { event_types: ['typing'] });
    let sent = 0;
    let othelloGot = 0;
    for (let round = 0; round < 5; round++) {
      expectSuccess(await othello.patch('/settings', { receives_typing_notifications: false }), 'PATCH', '/settings');
      expectSuccess(await hamlet.post('/typing', { op: 'start', to }), 'POST', '/typing');
      sent += 1;
      await untilTypings(cordeliaQueue, sent);
      await othelloQueue.drain();
      expect(typingOf(othelloQueue)).toHaveLength(othelloGot);

      expectSuccess(await othello.patch('/settings', { receives_typing_notifications: true }), 'PATCH', '/settings');
      expectSuccess(await hamlet.post('/typing', { op: 'stop', to }), 'POST', '/typing');
      sent += 1;
      await untilTypings(cordeliaQueue, sent);
      othelloGot += 1;
      const got = await untilTypings(othelloQueue, othelloGot);
      expect(got[othelloGot - 1]).toEqual(
        expect.objectContaining({ op: 'stop', sender: expect.objectContaining({ user_id: world.user('hamlet').id }) }),
      );
    }
  }, 120_000);
});
