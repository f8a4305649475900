import type { ApiClient, World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';
import { updateRealm } from './support/world-facts';

const send = async (client: ApiClient, to = 'Verona', topic = 'deletion') =>
  (await client.post('/messages', { type: 'stream', to, topic, content: 'to be deleted' })).body.id as number;

describe('DELETE /messages/{message_id}', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('lets the sender delete their message, announces it and forgets it', async () => {
    const events = await EventCapture.start(['message.deleted'], world.realm.realm_id);
    const id = await send(world.as('hamlet'));
    const response = await world.as('hamlet').delete(`/messages/${id}`);
    expectSuccess(response, 'DELETE', `/messages/${id}`);
    const event = await events.next('message.deleted', (p) => p.message_ids.includes(id));
    await events.stop();
    expect(event).toMatchObject({ message_ids: [id], message_type: 'stream', topic: 'deletion' });
    expect(event.user_ids).toEqual(expect.arrayContaining([world.user('hamlet').id, world.user('polonius').id]));
    expectError(await world.as('hamlet').get(`/messages/${id}`), 400, 'BAD_REQUEST', 'Invalid message(s)');
    const listed = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Verona' }],
    });
    expect((listed.body.messages as { id: number }[]).map((m) => m.id)).not.toContain(id);
    expectError(await world.as('hamlet').delete(`/messages/${id}`), 400, 'BAD_REQUEST', 'Invalid message(s)');
  });

  it("refuses other users' messages to members and allows them to administrators", async () => {
    const id = await send(world.as('othello'));
    expectError(
      await world.as('hamlet').delete(`/messages/${id}`),
      400,
      'BAD_REQUEST',
      "You don't have permission to delete this message",
    );
    expectSuccess(await world.as('iago').delete(`/messages/${id}`), 'DELETE', `/messages/${id}`);
  });

  it('deletes direct messages only for participants', async () => {
    const dm = (
      await world.as('hamlet').post('/messages', { type: 'direct', to: [world.user('othello').id], content: 'x' })
    ).body.id;
    expectError(await world.as('cordelia').delete(`/messages/${dm}`), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectSuccess(await world.as('hamlet').delete(`/messages/${dm}`), 'DELETE', `/messages/${dm}`);
  });

  it("applies the channel's own deletion permissions", async () => {
    const created = await world.as('iago').post('/channels/create', {
      name: 'moderated',
      subscribers: [world.user('hamlet').id, world.user('othello').id],
      can_delete_any_message_group: { direct_members: [world.user('hamlet').id], direct_subgroups: [] },
    });
    expectSuccess(created, 'POST', '/channels/create');
    const id = await send(world.as('othello'), 'moderated');
    expectSuccess(await world.as('hamlet').delete(`/messages/${id}`), 'DELETE', `/messages/${id}`);
    const other = await send(world.as('hamlet'), 'moderated');
    expectError(
      await world.as('othello').delete(`/messages/${other}`),
      400,
      'BAD_REQUEST',
      "You don't have permission to delete this message",
    );
  });
});

describe('DELETE /messages/{message_id} under organization policies', () => {
  // The time limit itself is a domain rule, checked with an aged message in services/messaging/test/domain-rules.
  it('enforces who may delete their own messages', async () => {
    const world = await newWorld();
    await updateRealm(world, {
      message_content_delete_limit_seconds: null,
      permissions: { can_delete_own_message_group: 'role:nobody' },
    });
    const fresh = await send(world.as('hamlet'));
    expectError(
      await world.as('hamlet').delete(`/messages/${fresh}`),
      400,
      'BAD_REQUEST',
      "You don't have permission to delete this message",
    );
    const created = await world.as('iago').post('/channels/create', {
      name: 'own-deletes',
      subscribers: [world.user('hamlet').id],
      can_delete_own_message_group: { direct_members: [world.user('hamlet').id], direct_subgroups: [] },
    });
    expectSuccess(created, 'POST', '/channels/create');
    const inChannel = await send(world.as('hamlet'), 'own-deletes');
    expectSuccess(await world.as('hamlet').delete(`/messages/${inChannel}`), 'DELETE', `/messages/${inChannel}`);
  });
});
