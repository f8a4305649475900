import { serviceToken, type World } from '@confab/devkit';
import { newWorld, system } from './support/system';

/** The messaging part of /register, as the events service asks for it (GET /internal/users/{id}/initial-state). */
async function stateOf(world: World, name: Parameters<World['user']>[0], query: Record<string, string> = {}) {
  const info = system();
  const params = new URLSearchParams(query).toString();
  const response = await fetch(
    `${info.serviceUrls.messaging}/internal/users/${world.user(name).id}/initial-state?${params}`,
    {
      headers: { 'x-confab-identity': serviceToken(info) },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('GET /internal/users/{user_id}/initial-state', () => {
  it("answers the user's subscriptions, topic policies, unread and starred messages and conversations", async () => {
    const world = await newWorld();
    const hamlet = world.user('hamlet').id;
    const othello = world.user('othello').id;
    const dm = await world.as('othello').post('/messages', { type: 'direct', to: [hamlet], content: 'psst' });
    const group = await world
      .as('othello')
      .post('/messages', { type: 'direct', to: [hamlet, world.user('iago').id], content: 'all of us' });
    const mention = await world
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'news', content: 'hey @**King Hamlet**' });
    await world.as('hamlet').post('/messages/flags', { messages: [mention.body.id], op: 'add', flag: 'starred' });
    await world.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Rome'] });
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    await world.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'noise', visibility_policy: 1 });

    const { status, body } = await stateOf(world, 'hamlet', { include_subscribers: 'true' });
    expect(status).toBe(200);
    expect((body.subscriptions as { name: string }[]).map((s) => s.name).sort()).toEqual([
      'Denmark',
      'Scotland',
      'Venice',
      'Verona',
    ]);
    expect(body.subscriptions.find((s: { name: string }) => s.name === 'Verona').subscribers).toContain(othello);
    expect((body.unsubscribed as { name: string }[]).map((s) => s.name)).toEqual(['Rome']);
    expect(body.never_subscribed).toEqual([]);
    // Being mentioned made hamlet follow "news".
    expect(body.user_topics).toEqual([
      expect.objectContaining({ stream_id: verona, topic_name: 'news', visibility_policy: 3 }),
      expect.objectContaining({ stream_id: verona, topic_name: 'noise', visibility_policy: 1 }),
    ]);
    expect(body.starred_messages).toEqual([mention.body.id]);
    expect(body.max_message_id).toBe(mention.body.id);
    expect(body.unread_msgs).toMatchObject({
      count: 3,
      pms: [{ other_user_id: othello, sender_id: othello, unread_message_ids: [dm.body.id] }],
      huddles: [
        {
          user_ids_string: [hamlet, othello, world.user('iago').id].sort((a, b) => a - b).join(','),
          unread_message_ids: [group.body.id],
        },
      ],
      streams: [{ stream_id: verona, topic: 'news', unread_message_ids: [mention.body.id] }],
      mentions: [mention.body.id],
      old_unreads_missing: false,
    });
    expect(body.recent_private_conversations).toEqual([
      { max_message_id: group.body.id, user_ids: [othello, world.user('iago').id].sort((a, b) => a - b) },
      { max_message_id: dm.body.id, user_ids: [othello] },
    ]);
  });

  it('answers only what fetch_event_types asks for, and 404 for unknown users', async () => {
    const world = await newWorld();
    const { body } = await stateOf(world, 'polonius', {
      fetch_event_types: JSON.stringify(['subscription', 'stream']),
    });
    expect(Object.keys(body).sort()).toEqual([
      'msg',
      'never_subscribed',
      'result',
      'streams',
      'subscriptions',
      'unsubscribed',
    ]);
    expect((body.streams as { name: string }[]).map((s) => s.name)).toEqual(['Verona']);
    const info = system();
    const unknown = await fetch(`${info.serviceUrls.messaging}/internal/users/999999999/initial-state`, {
      headers: { 'x-confab-identity': serviceToken(info) },
    });
    expect(unknown.status).toBe(404);
  });
});
