import { contracts } from '@confab/events';
import type { World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { publishEvent } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('POST /typing', () => {
  let world: World;
  let events: EventCapture;
  beforeAll(async () => {
    world = await newWorld();
    events = await EventCapture.start(['typing.*', 'typing_edit_message.*'], world.realm.realm_id);
    // Othello turned typing notifications off (the settings service announces personal settings).
    await publishEvent(
      contracts.userSettingsChanged,
      {
        user_id: world.user('othello').id,
        realm_id: world.realm.realm_id,
        changed: ['receives_typing_notifications'],
        settings: { receives_typing_notifications: false },
      },
      world.realm.realm_id,
    );
  });
  afterAll(() => events.stop());

  it('announces direct-message typing to recipients who receive typing notifications', async () => {
    const to = [world.user('othello').id, world.user('cordelia').id];
    const response = await world.as('hamlet').post('/typing', { op: 'start', to });
    expectSuccess(response, 'POST', '/typing');
    const event = await events.next('typing.started', (p) => p.message_type === 'direct');
    expect(event.sender).toEqual({ user_id: world.user('hamlet').id, email: 'hamlet@zulip.com' });
    expect(event.recipients.map((r: { user_id: number }) => r.user_id).sort()).toEqual(
      [...to, world.user('hamlet').id].sort(),
    );
    expect(event.user_ids).toContain(world.user('cordelia').id);
    expect(event.user_ids).not.toContain(world.user('othello').id);
    expectSuccess(await world.as('hamlet').post('/typing', { op: 'stop', to }), 'POST', '/typing');
    await events.next('typing.stopped', (p) => p.message_type === 'direct');
  });

  it('announces channel typing to subscribers', async () => {
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    expectSuccess(
      await world.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: verona, topic: 'plans' }),
      'POST',
      '/typing',
    );
    const event = await events.next('typing.started', (p) => p.message_type === 'stream');
    expect(event).toMatchObject({ stream_id: verona, topic: 'plans' });
    expect(event.user_ids).toContain(world.user('polonius').id);
    expect(event.user_ids).not.toContain(world.user('othello').id);
  });

  it('validates its parameters', async () => {
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post('/typing', { op: 'start' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'to' argument",
    );
    expectError(await hamlet.post('/typing', { op: 'start', to: [] }), 400, 'BAD_REQUEST', "Empty 'to' list");
    expectError(
      await hamlet.post('/typing', { op: 'start', to: [99999999] }),
      400,
      'BAD_REQUEST',
      'Invalid user ID 99999999',
    );
    expectError(await hamlet.post('/typing', { op: 'pause', to: [1] }), 400, 'BAD_REQUEST', 'Invalid op');
    expectError(
      await hamlet.post('/typing', { type: 'stream', op: 'start', topic: 'x' }),
      400,
      'BAD_REQUEST',
      "Missing 'stream_id' argument",
    );
    const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    expectError(
      await hamlet.post('/typing', { type: 'stream', op: 'start', stream_id: verona }),
      400,
      'BAD_REQUEST',
      'Missing topic',
    );
    const denmark = (await hamlet.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    expectError(
      await world.as('polonius').post('/typing', { type: 'stream', op: 'start', stream_id: denmark, topic: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('refuses senders who disabled sending typing notifications', async () => {
    await publishEvent(
      contracts.userSettingsChanged,
      {
        user_id: world.user('aaron').id,
        realm_id: world.realm.realm_id,
        changed: ['send_private_typing_notifications'],
        settings: { send_private_typing_notifications: false, send_stream_typing_notifications: false },
      },
      world.realm.realm_id,
    );
    expectError(
      await world.as('aaron').post('/typing', { op: 'start', to: [world.user('hamlet').id] }),
      400,
      'BAD_REQUEST',
      'User has disabled typing notifications for direct messages',
    );
    const verona = (await world.as('aaron').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    expectError(
      await world.as('aaron').post('/typing', { type: 'stream', op: 'start', stream_id: verona, topic: 'x' }),
      400,
      'BAD_REQUEST',
      'User has disabled typing notifications for channel messages',
    );
  });
});

describe('POST /messages/{message_id}/typing', () => {
  it('announces that the sender is editing, and refuses others', async () => {
    const world = await newWorld();
    const events = await EventCapture.start(['typing_edit_message.*'], world.realm.realm_id);
    const id = (
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'edits', content: 'typo' })
    ).body.id;
    const response = await world.as('hamlet').post(`/messages/${id}/typing`, { op: 'start' });
    expectSuccess(response, 'POST', `/messages/${id}/typing`);
    const event = await events.next('typing_edit_message.started');
    expect(event).toMatchObject({
      sender_id: world.user('hamlet').id,
      message_id: id,
      recipient: { type: 'channel', topic: 'edits' },
    });
    expect(event.user_ids).toContain(world.user('othello').id);
    expectSuccess(
      await world.as('hamlet').post(`/messages/${id}/typing`, { op: 'stop' }),
      'POST',
      `/messages/${id}/typing`,
    );
    await events.next('typing_edit_message.stopped');
    await events.stop();
    expectError(
      await world.as('othello').post(`/messages/${id}/typing`, { op: 'start' }),
      400,
      'BAD_REQUEST',
      "You don't have permission to edit this message",
    );
    expectError(
      await world.as('othello').post('/messages/99999999/typing', { op: 'start' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
  });
});
