import type { ApiClient, World } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('POST /messages/{message_id}/reactions', () => {
  let world: World;
  let hamlet: ApiClient;
  let messageId: number;
  let events: EventCapture;

  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
    events = await EventCapture.start(['reaction.*'], world.realm.realm_id);
    messageId = (
      await world
        .as('othello')
        .post('/messages', { type: 'stream', to: 'Verona', topic: 'reactions', content: 'react to me' })
    ).body.id;
  });
  afterAll(() => events.stop());

  const reactionsOf = async (id: number) =>
    (await hamlet.get(`/messages/${id}`)).body.message.reactions as Record<string, unknown>[];

  it('adds a Unicode emoji by name and announces it', async () => {
    const response = await hamlet.post(`/messages/${messageId}/reactions`, { emoji_name: 'octopus' });
    expectSuccess(response, 'POST', `/messages/${messageId}/reactions`);
    expect(await reactionsOf(messageId)).toEqual([
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: world.user('hamlet').id },
    ]);
    const event = await events.next('reaction.added', (p) => p.message_id === messageId);
    expect(event).toMatchObject({
      user_id: world.user('hamlet').id,
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
    expect(event.user_ids).toEqual(expect.arrayContaining([world.user('othello').id, world.user('polonius').id]));
  });

  it('refuses the same reaction twice', async () => {
    const response = await hamlet.post(`/messages/${messageId}/reactions`, { emoji_name: 'octopus' });
    expectError(response, 400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  });

  it('counts a reaction by code as a vote for the existing one, keeping its name', async () => {
    await world.as('cordelia').post(`/messages/${messageId}/reactions`, {
      emoji_name: 'heart',
      emoji_code: '2764',
      reaction_type: 'unicode_emoji',
    });
    const vote = await world.as('iago').post(`/messages/${messageId}/reactions`, {
      emoji_name: 'red_heart',
      emoji_code: '2764',
      reaction_type: 'unicode_emoji',
    });
    expectSuccess(vote, 'POST', `/messages/${messageId}/reactions`);
    const hearts = (await reactionsOf(messageId)).filter((r) => r.emoji_code === '2764');
    expect(hearts.map((r) => r.emoji_name)).toEqual(['heart', 'heart']);
  });

  it('accepts the server extra emoji, and names its type as Zulip does (zulip_extra_emoji) in messages', async () => {
    const response = await hamlet.post(`/messages/${messageId}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'service_extra_emoji',
    });
    expectSuccess(response, 'POST', `/messages/${messageId}/reactions`);
    const extra = (await reactionsOf(messageId)).filter((r) => r.emoji_code === 'zulip');
    expect(extra.map((r) => r.reaction_type)).toEqual(['zulip_extra_emoji']);
  });

  it('takes Zulip’s name for it (zulip_extra_emoji), as the apps send it, for adding and removing', async () => {
    const othello = world.as('othello');
    const added = await othello.post(`/messages/${messageId}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    expectSuccess(added, 'POST', `/messages/${messageId}/reactions`);
    const mine = () =>
      reactionsOf(messageId).then((all) => all.filter((r) => r.emoji_code === 'zulip').map((r) => r.user_id));
    expect(await mine()).toEqual(expect.arrayContaining([world.user('othello').id]));
    const removed = await othello.delete(`/messages/${messageId}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    expectSuccess(removed, 'DELETE', `/messages/${messageId}/reactions`);
    expect(await mine()).not.toContain(world.user('othello').id);
  });

  it('validates emoji names, codes and types', async () => {
    expectError(
      await hamlet.post(`/messages/${messageId}/reactions`, { emoji_name: 'no_such_emoji' }),
      400,
      'BAD_REQUEST',
      "Emoji 'no_such_emoji' does not exist",
    );
    expectError(
      await hamlet.post(`/messages/${messageId}/reactions`, {
        emoji_name: 'smile',
        emoji_code: 'zzzz',
        reaction_type: 'unicode_emoji',
      }),
      400,
      'BAD_REQUEST',
      'Invalid emoji code.',
    );
    expectError(
      await hamlet.post(`/messages/${messageId}/reactions`, {
        emoji_name: 'smile',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
      }),
      400,
      'BAD_REQUEST',
      'Invalid emoji name.',
    );
    expectError(
      await hamlet.post(`/messages/${messageId}/reactions`, {
        emoji_name: 'smile',
        emoji_code: '1f604',
        reaction_type: 'bogus_emoji',
      }),
      400,
      'BAD_REQUEST',
      'Invalid emoji type.',
    );
    expectError(
      await hamlet.post(`/messages/${messageId}/reactions`, {
        emoji_name: 'custom',
        emoji_code: '12',
        reaction_type: 'realm_emoji',
      }),
      400,
      'BAD_REQUEST',
      'Invalid custom emoji.',
    );
  });

  it('refuses messages the user cannot see', async () => {
    const dm = await world
      .as('othello')
      .post('/messages', { type: 'direct', to: [world.user('iago').id], content: 'private' });
    expectError(
      await hamlet.post(`/messages/${dm.body.id}/reactions`, { emoji_name: 'octopus' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(
      await hamlet.post('/messages/99999999/reactions', { emoji_name: 'octopus' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  it('removes a reaction by name or by code, and says when there is none', async () => {
    const world = await newWorld();
    const events = await EventCapture.start(['reaction.removed'], world.realm.realm_id);
    const hamlet = world.as('hamlet');
    const id = (await hamlet.post('/messages', { type: 'stream', to: 'Rome', topic: 'r', content: 'x' })).body.id;
    await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    const byName = await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    expectSuccess(byName, 'DELETE', `/messages/${id}/reactions`);
    const byCode = await hamlet.delete(`/messages/${id}/reactions`, {
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
    expectSuccess(byCode, 'DELETE', `/messages/${id}/reactions`);
    expect((await hamlet.get(`/messages/${id}`)).body.message.reactions).toEqual([]);
    expect(await events.next('reaction.removed', (p) => p.emoji_code === '1f419')).toMatchObject({
      message_id: id,
      emoji_name: 'octopus',
    });
    await events.stop();
    const again = await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    expectError(again, 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(
      await hamlet.delete(`/messages/${id}/reactions`, {}),
      400,
      'BAD_REQUEST',
      'At least one of the following arguments must be present: emoji_name, emoji_code',
    );
  });
});
