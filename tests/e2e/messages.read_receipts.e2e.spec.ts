import type { World } from '@confab/devkit';
import { EventTap, waitHandled } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';
import { updateRealm } from './support/world-facts';

describe('GET /messages/{message_id}/read_receipts', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['user_settings.changed', 'muted_user.*']);
  });
  afterAll(() => tap.close());

  const receipts = async (reader: 'hamlet' | 'iago' | 'polonius', id: number) => {
    const response = await world.as(reader).get(`/messages/${id}/read_receipts`);
    expectSuccess(response, 'GET', `/messages/${id}/read_receipts`);
    return response.body.user_ids as number[];
  };
  const markRead = async (reader: 'othello' | 'cordelia' | 'iago', id: number) =>
    expectSuccess(
      await world.as(reader).post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' }),
      'POST',
      '/messages/flags',
    );
  /** Another user's view reflects a change once messaging has applied its event. */
  const applied = async (type: string, userId: number) => {
    const event = await tap.next((e) => e.type === type && e.payload.user_id === userId);
    await waitHandled(system().serviceUrls.messaging!, event.event_id);
  };

  it('lists who read a message, never its sender, only those who share it, when the organization allows', async () => {
    const sent = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'receipts',
      content: 'did you read this?',
    });
    const id = sent.body.id as number;
    expectError(
      await world.as('hamlet').get(`/messages/${id}/read_receipts`),
      400,
      'BAD_REQUEST',
      'Read receipts are disabled in this organization.',
    );
    await updateRealm(world, { enable_read_receipts: true });
    expect(await receipts('hamlet', id)).toEqual([]);

    await markRead('othello', id);
    await markRead('iago', id);
    expect(await receipts('hamlet', id)).toEqual(
      [world.user('iago').id, world.user('othello').id].sort((a, b) => a - b),
    );

    // Cordelia keeps her reading private.
    expectSuccess(await world.as('cordelia').patch('/settings', { send_read_receipts: false }), 'PATCH', '/settings');
    await applied('user_settings.changed', world.user('cordelia').id);
    await markRead('cordelia', id);
    expect(await receipts('hamlet', id)).not.toContain(world.user('cordelia').id);

    // Someone who muted the viewer does not show up for them.
    expectSuccess(
      await world.as('othello').post(`/users/me/muted_users/${world.user('hamlet').id}`),
      'POST',
      '/users/me/muted_users/{muted_user_id}',
    );
    await applied('muted_user.added', world.user('othello').id);
    expect(await receipts('hamlet', id)).toEqual([world.user('iago').id]);
    // Others still see Othello, and the viewer's own reading is listed too.
    expect(await receipts('iago', id)).toEqual([world.user('iago').id, world.user('othello').id].sort((a, b) => a - b));
  });

  it('answers only for messages the viewer can access', async () => {
    const dm = await world.as('hamlet').post('/messages', {
      type: 'direct',
      to: [world.user('othello').id],
      content: 'private',
    });
    expectError(
      await world.as('polonius').get(`/messages/${dm.body.id as number}/read_receipts`),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(
      await world.as('hamlet').get('/messages/999999999/read_receipts'),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
  });
});
