import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Measured: about 10 s on the 2-core machine (one organization for the file).
jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

describe('POST /users/{user_id}/status', () => {
  it("an administrator sets a bot's status; everyone hears of it", async () => {
    const bot = world.user('default-bot');
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['user_status'] });
    const response = await world.as('iago').post(`/users/${bot.id}/status`, { status_text: 'Deploying' });
    expectSuccess(response, 'POST', '/users/{user_id}/status');
    expect(await queue.next((e) => e.type === 'user_status' && e.user_id === bot.id)).toMatchObject({
      status_text: 'Deploying',
    });
  });

  it("refuses members, unknown users and empty changes with Zulip's messages", async () => {
    const target = world.user('othello').id;
    expectError(
      await world.as('hamlet').post(`/users/${target}/status`, { status_text: 'hi' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('iago').post('/users/999999/status', { status_text: 'hi' }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await world.as('iago').post(`/users/${target}/status`, {}),
      400,
      'BAD_REQUEST',
      'Client did not pass any new values.',
    );
    expectError(
      await world.as('iago').post(`/users/${target}/status`, { status_text: 'x'.repeat(61) }),
      400,
      'BAD_REQUEST',
      'status_text is too long (limit: 60 characters)',
    );
  });
});

describe('POST /realm/test_welcome_bot_custom_message', () => {
  it('sends the text to the administrator as a direct message', async () => {
    const queue = await EventQueue.register(world.as('iago'), { event_types: ['message'], apply_markdown: true });
    const response = await world
      .as('iago')
      .post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Welcome to **our** team!' });
    expectSuccess(response, 'POST', '/realm/test_welcome_bot_custom_message');
    const id = response.body.message_id as number;
    const event = await queue.next((e) => e.type === 'message' && e.message.id === id);
    expect(event.message).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot' });
    expect(event.message.content).toContain('<strong>our</strong>');
  });

  it('is refused to members and for empty text', async () => {
    expectError(
      await world.as('hamlet').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Hi' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('iago').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: '  ' }),
      400,
      'BAD_REQUEST',
      'Message must not be empty.',
    );
  });
});
