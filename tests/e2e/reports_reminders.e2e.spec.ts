import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { channelIds } from './support/invitations';
import { newWorld } from './support/system';
import { updateRealm } from './support/world-facts';

// Measured: about 15 s on the 2-core machine (one organization; a reminder is due 2 s after it is made).
jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const sendTo = async (to: string, topic: string, content: string, as: Parameters<World['as']>[0] = 'hamlet') =>
  (await world.as(as).post('/messages', { type: 'stream', to, topic, content })).body.id as number;

describe('POST /messages/{message_id}/report', () => {
  it('is refused while the organization has no moderation request channel', async () => {
    const id = await sendTo('Verona', 'rude', 'something rude');
    expectError(
      await world.as('cordelia').post(`/messages/${id}/report`, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Message reporting is not enabled in this organization.',
    );
  });

  it("posts Zulip's report to the moderation request channel, from the Notification Bot", async () => {
    const created = await world.as('iago').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'moderation' }],
      principals: [world.user('iago').id, world.user('shiva').id],
      invite_only: true,
    });
    expectSuccess(created, 'POST', '/users/me/subscriptions');
    const moderation = (await world.as('iago').get('/get_stream_id', { stream: 'moderation' })).body
      .stream_id as number;
    await updateRealm(world, { moderation_request_channel_id: moderation });
    const shiva = await EventQueue.register(world.as('shiva'), { event_types: ['message'] });
    const id = await sendTo('Verona', 'rude', 'you are all **wrong**');
    const response = await world.as('cordelia').post(`/messages/${id}/report`, {
      report_type: 'harassment',
      description: 'Not nice.',
    });
    expectSuccess(response, 'POST', '/messages/{message_id}/report');
    const report = await shiva.next((e) => e.type === 'message' && e.message.stream_id === moderation);
    expect(report.message).toMatchObject({ subject: 'King Hamlet moderation', sender_full_name: 'Notification Bot' });
    const hamlet = world.user('hamlet');
    const cordelia = world.user('cordelia');
    const verona = (await channelIds(world.as('hamlet'))).Verona;
    expect(report.message.content).toMatch(
      new RegExp(
        `^@_\\*\\*${cordelia.fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\|${cordelia.id}\\*\\* reported a message sent by @_\\*\\*King Hamlet\\|${hamlet.id}\\*\\* at <time:[^>]+>\\.\n`,
      ),
    );
    expect(report.message.content).toContain('```quote\n**Harassment**. Not nice.\n```');
    expect(report.message.content).toContain(
      `\`\`\` spoiler Original message at [#Verona > rude](#narrow/channel/${verona}-Verona/topic/rude/with/${id})\nyou are all **wrong**\n\`\`\``,
    );
  });

  it('refuses unknown reasons, "other" without an explanation and messages the reporter cannot see', async () => {
    const id = await sendTo('Verona', 'rude', 'again');
    expectError(
      await world.as('cordelia').post(`/messages/${id}/report`, { report_type: 'boring' }),
      400,
      'BAD_REQUEST',
      'Invalid report_type',
    );
    expectError(
      await world.as('cordelia').post(`/messages/${id}/report`, { report_type: 'other' }),
      400,
      'BAD_REQUEST',
      'An explanation is required.',
    );
    const dm = (
      await world.as('hamlet').post('/messages', { type: 'direct', to: [world.user('othello').id], content: 'psst' })
    ).body.id as number;
    expectError(
      await world.as('cordelia').post(`/messages/${dm}/report`, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(
      await world.as('cordelia').post(`/messages/${id}/report`, {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'report_type' argument",
    );
  });
});

describe('reminders (/reminders)', () => {
  it('are listed, announced, and delivered by the Notification Bot at their time', async () => {
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['reminders', 'message'] });
    const id = await sendTo('Denmark', 'plans', 'meet at noon', 'iago');
    const due = Math.floor(Date.now() / 1000) + 2;
    const created = await world.as('othello').post('/reminders', {
      message_id: id,
      scheduled_delivery_timestamp: due,
      note: 'bring lunch',
    });
    expectSuccess(created, 'POST', '/reminders');
    const reminderId = created.body.reminder_id as number;
    const added = await othello.next((e) => e.type === 'reminders' && e.op === 'add');
    expect(added.reminders).toMatchObject([
      {
        reminder_id: reminderId,
        type: 'private',
        to: [world.user('othello').id],
        reminder_target_message_id: id,
        failed: false,
      },
    ]);
    expect(added.reminders[0].content).toMatch(
      /^You requested a reminder for the following message\. Note:\n > bring lunch\n\n/,
    );
    const listed = await world.as('othello').get('/reminders');
    expectSuccess(listed, 'GET', '/reminders');
    expect(listed.body.reminders.map((r: { reminder_id: number }) => r.reminder_id)).toEqual([reminderId]);
    // Reminders are not scheduled messages.
    expect((await world.as('othello').get('/scheduled_messages')).body.scheduled_messages).toEqual([]);

    const delivered = await othello.next(
      (e) => e.type === 'message' && e.message.sender_full_name === 'Notification Bot',
    );
    expect(delivered.message).toMatchObject({ type: 'private', content: added.reminders[0].content });
    expect((await world.as('othello').get('/reminders')).body.reminders).toEqual([]);
  });

  it('are deleted by their owner only, and refused for the past or unseen messages', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['reminders'] });
    const id = await sendTo('Denmark', 'later', 'remember me');
    const later = Math.floor(Date.now() / 1000) + 3600;
    const reminderId = (
      await world.as('hamlet').post('/reminders', { message_id: id, scheduled_delivery_timestamp: later })
    ).body.reminder_id as number;
    expectError(
      await world.as('othello').delete(`/reminders/${reminderId}`),
      404,
      'BAD_REQUEST',
      'Reminder does not exist',
    );
    expectSuccess(await world.as('hamlet').delete(`/reminders/${reminderId}`), 'DELETE', '/reminders/{reminder_id}');
    expect(await queue.next((e) => e.type === 'reminders' && e.op === 'remove')).toMatchObject({
      reminder_id: reminderId,
    });
    expectError(
      await world.as('hamlet').post('/reminders', { message_id: id, scheduled_delivery_timestamp: 1000 }),
      400,
      'BAD_REQUEST',
      'Scheduled delivery time must be in the future.',
    );
    expectError(
      await world.as('hamlet').post('/reminders', { message_id: 99999999, scheduled_delivery_timestamp: later }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(
      await world
        .as('hamlet')
        .post('/reminders', { message_id: id, scheduled_delivery_timestamp: later, note: 'x'.repeat(1001) }),
      400,
      'BAD_REQUEST',
      'Maximum reminder note length: 1000 characters',
    );
  });
});
