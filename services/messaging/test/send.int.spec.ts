import { contracts, parseEnvelope } from '@confab/events';
import { FLAG } from '@confab/zulip';
import type { Actor } from '../src/domain/actor';
import { sendMessage } from '../src/domain/send';
import type { SendInput } from '../src/domain/send-input';
import { messagingWorld, REALM, type TestDomain } from './fixtures';

const send = (overrides: Partial<SendInput>): SendInput => ({
  type: 'stream',
  to: 'Verona',
  topic: 'lunch',
  content: 'hello',
  queueId: undefined,
  localId: undefined,
  readBySender: undefined,
  client: 'test',
  ...overrides,
});

describe('sending against PostgreSQL', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'send',
      pool: 8,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
        [3, 'cordelia'],
      ],
    });
    ({ domain, drop: close } = world);
    hamlet = world.actors.hamlet!;
  });

  afterAll(async () => {
    await close();
  });

  const rowsOf = (messageId: number) =>
    domain.store.db.userMessage.findMany({
      where: { messageId },
      orderBy: { userId: 'asc' },
      select: { userId: true, flags: true },
    });
  const sentEvent = async (messageId: number) => {
    const rows = await domain.store.db.outbox.findMany({ where: { routingKey: 'message.sent' } });
    const envelopes = rows.map((r) => parseEnvelope(contracts.messageSent, r.envelope));
    return envelopes.find((e) => e.payload.message.id === messageId)!.payload;
  };

  it('writes the message, one row per subscriber with computed flags, and a complete message.sent event', async () => {
    const { id, automatic_new_visibility_policy } = await sendMessage(
      domain,
      hamlet,
      send({ content: 'hi @**Othello**', readBySender: true, queueId: 'q', localId: 'l1' }),
    );
    expect(automatic_new_visibility_policy).toBe(3);
    expect(await rowsOf(id)).toEqual([
      { userId: 1, flags: FLAG.read },
      { userId: 2, flags: FLAG.mentioned },
      { userId: 3, flags: 0 },
    ]);
    const event = await sentEvent(id);
    expect(event.user_ids).toEqual([1, 2, 3]);
    expect(event.flags).toEqual({ '1': ['read'], '2': ['mentioned'] });
    expect(event).toMatchObject({
      local_id: 'l1',
      sender_queue_id: 'q',
      message: { id, subject: 'lunch', display_recipient: 'Verona' },
    });
    const topics = await domain.store.db.userTopic.findMany({ orderBy: { userId: 'asc' } });
    expect(topics.map((t) => [t.userId, t.visibilityPolicy])).toEqual([
      [1, 3],
      [2, 3],
    ]);
    const channel = await domain.channels.channelByName(REALM, 'Verona');
    expect(channel!.firstMessageId).toBe(id);
  });

  it('puts the sender first among receivers and marks direct messages private', async () => {
    const cordelia: Actor = { ...hamlet, user: (await domain.readModel.userById(3))! };
    const { id } = await sendMessage(domain, cordelia, send({ type: 'direct', to: '[1]', topic: undefined }));
    expect(await rowsOf(id)).toEqual([
      { userId: 1, flags: FLAG.is_private },
      { userId: 3, flags: FLAG.is_private },
    ]);
    const event = await sentEvent(id);
    expect(event.user_ids).toEqual([3, 1]);
    expect(event.flags).toEqual({});
    expect(event.stream).toBeNull();
  });

  it('keeps every concurrent send whole', async () => {
    const ids = await Promise.all(
      Array.from({ length: 25 }, (_, i) => sendMessage(domain, hamlet, send({ content: `burst ${i}` }))),
    );
    for (const { id } of ids) expect((await rowsOf(id)).map((r) => r.userId)).toEqual([1, 2, 3]);
    expect(new Set(ids.map((r) => r.id)).size).toBe(25);
  });

  it("decides the sender's automatic topic policy inside the write statement", async () => {
    const cordelia: Actor = { ...hamlet, user: (await domain.readModel.userById(3))! };
    const policyEvents = async () =>
      (
        await domain.store.db.outbox.findMany({ where: { routingKey: 'user_topic.changed' }, orderBy: { id: 'asc' } })
      ).map((r) => parseEnvelope(contracts.userTopicChanged, r.envelope).payload);
    const started = await sendMessage(domain, cordelia, send({ topic: 'fresh' }));
    expect(started.automatic_new_visibility_policy).toBe(3);
    expect((await policyEvents()).at(-1)).toMatchObject({ user_id: 3, topic_name: 'fresh', visibility_policy: 3 });
    const again = await sendMessage(domain, cordelia, send({ topic: 'FRESH' }));
    expect(again.automatic_new_visibility_policy).toBeUndefined();

    // In a muted channel, writing in an existing topic unmutes it (automatically_unmute_topics_in_muted_streams_policy=2).
    const verona = (await domain.channels.channelByName(REALM, 'Verona'))!;
    await domain.store.db.subscription.update({
      where: { userId_channelId: { userId: 3, channelId: verona.id } },
      data: { isMuted: true },
    });
    const unmuted = await sendMessage(domain, cordelia, send({ topic: 'lunch' }));
    expect(unmuted.automatic_new_visibility_policy).toBe(2);
    const row = await domain.store.db.userTopic.findFirst({ where: { userId: 3, topicKey: 'lunch' } });
    expect(row?.visibilityPolicy).toBe(2);
    const still = await sendMessage(domain, cordelia, send({ topic: 'lunch' }));
    expect(still.automatic_new_visibility_policy).toBeUndefined();
  });

  it('leaves nothing behind when a send is refused', async () => {
    const before = await domain.store.db.message.count();
    await expect(sendMessage(domain, hamlet, send({ to: 'Nowhere' }))).rejects.toThrow(
      "Channel 'Nowhere' does not exist",
    );
    expect(await domain.store.db.message.count()).toBe(before);
  });

  it("completes message.sent with what notifications need: bots, subscriptions' own settings, topic policies", async () => {
    const channel = (await domain.channels.channelByName(REALM, 'Verona'))!;
    const db = domain.store.db;
    await db.subscription.updateMany({
      where: { channelId: channel.id, userId: 2 },
      data: { pushNotifications: true },
    });
    await db.subscription.updateMany({ where: { channelId: channel.id, userId: 3 }, data: { isMuted: true } });
    await db.userTopic.create({
      data: { userId: 3, channelId: channel.id, topicName: 'quiet', topicKey: 'quiet', visibilityPolicy: 2 },
    });
    try {
      const { id } = await sendMessage(domain, hamlet, send({ topic: 'quiet', content: 'psst' }));
      expect((await sentEvent(id)).notify).toEqual({
        bot_ids: [],
        subscriptions: {
          '2': { push: true, email: null, wildcard: null, muted: false },
          '3': { push: null, email: null, wildcard: null, muted: true },
        },
        topic_policies: { '3': 2 },
      });
      const direct = await sendMessage(domain, hamlet, send({ type: 'direct', to: '[2]', topic: undefined }));
      expect((await sentEvent(direct.id)).notify).toEqual({ bot_ids: [], subscriptions: {}, topic_policies: {} });
    } finally {
      await db.subscription.updateMany({
        where: { channelId: channel.id },
        data: { pushNotifications: null, isMuted: false },
      });
      await db.userTopic.deleteMany({ where: { topicKey: 'quiet' } });
    }
  });
});
