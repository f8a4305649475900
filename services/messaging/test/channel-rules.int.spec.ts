import { contracts, parseEnvelope, type EventContract } from '@confab/events';
import { archiveChannel, channelMembers, updateChannel } from '../src/domain/channel-settings';
import { createChannel, subscribeToChannels } from '../src/domain/channels';
import type { Actor } from '../src/domain/actor';
import { unsubscribeFromChannels } from '../src/domain/unsubscribe';
import { messagingWorld, PUBLIC_CHANNEL, REALM, refusal, sendToChannel, type TestDomain } from './fixtures';

/**
 * Channel management rules of messaging, checked on the domain against PostgreSQL (the integration tier,
 * docs/architecture.md "Tests"): creation, subscription and unsubscription, privacy and who learns of it,
 * renaming and archiving. The HTTP shapes of the same endpoints stay in tests/e2e.
 */
describe('channel management against PostgreSQL', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let iago: Actor;
  let hamlet: Actor;
  let othello: Actor;
  let polonius: Actor;

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'channel_rules',
      pool: 8,
      users: [
        [1, 'iago', 200],
        [2, 'hamlet'],
        [3, 'othello'],
        [4, 'polonius', 600],
      ],
    });
    ({ domain, drop: close } = world);
    ({ iago, hamlet, othello, polonius } = world.actors as Record<'iago' | 'hamlet' | 'othello' | 'polonius', Actor>);
  });

  afterAll(async () => {
    await close();
  });

  const create = (actor: Actor, name: string, subscribers: readonly number[], settings = PUBLIC_CHANNEL) =>
    createChannel(domain, actor, { name, description: '', subscribers, settings });
  const subscribersOf = async (channelId: number) =>
    [...((await domain.channels.subscribers([channelId])).get(channelId) ?? [])].sort((a, b) => a - b);
  const channelNamed = async (name: string) => (await domain.channels.channelByName(REALM, name))!;
  const eventsOf = async <T>(contract: EventContract<T>) =>
    (await domain.store.db.outbox.findMany({ where: { routingKey: contract.type }, orderBy: { id: 'asc' } })).map(
      (row) => parseEnvelope(contract, row.envelope).payload,
    );

  it('creates a channel once, whatever the case of its name, and never for guests', async () => {
    const { id } = await create(hamlet, 'Lunch', [hamlet.user.id, othello.user.id]);
    expect(await subscribersOf(id)).toEqual([2, 3]);
    expect(await refusal(create(othello, 'LUNCH', []))).toEqual({
      code: 'CHANNEL_ALREADY_EXISTS',
      status: 409,
      msg: "Channel 'LUNCH' already exists",
    });
    expect(await refusal(create(polonius, 'mine', []))).toMatchObject({ msg: 'Not allowed for guest users' });
    expect(
      await refusal(
        subscribeToChannels(domain, polonius, {
          subscriptions: [{ name: 'Lunch' }],
          principals: undefined,
          authorizationErrorsFatal: true,
          settings: PUBLIC_CHANNEL,
        }),
      ),
    ).toMatchObject({ code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
    expect(await domain.channels.channelByName(REALM, 'mine')).toBeNull();
  });

  it('creates one channel for callers that subscribe to a new name at once, on a pool of two connections', async () => {
    // Each caller's transaction holds one of the pool's two connections; the losers wait on the winner's new name.
    // The winner must finish in its own transaction: a read on a second connection would wait for one of theirs.
    const answers = await Promise.all(
      [hamlet, iago].map((actor) =>
        subscribeToChannels(domain, actor, {
          subscriptions: [{ name: 'Race' }],
          principals: undefined,
          authorizationErrorsFatal: true,
          settings: PUBLIC_CHANNEL,
        }),
      ),
    );
    expect(answers.map((a) => Object.keys(a.subscribed as object))).toEqual([['2'], ['1']]);
    expect(await subscribersOf((await channelNamed('Race')).id)).toEqual([1, 2]);
  });

  it('unsubscribes the caller, and others only with permission; unknown channels are named', async () => {
    const { id } = await create(hamlet, 'Book club', [hamlet.user.id, othello.user.id]);
    expect(await unsubscribeFromChannels(domain, hamlet, { names: ['Book club'], principals: undefined })).toEqual({
      removed: ['Book club'],
      not_removed: [],
    });
    expect(await unsubscribeFromChannels(domain, hamlet, { names: ['book club'], principals: undefined })).toEqual({
      removed: [],
      not_removed: ['Book club'],
    });
    expect(
      await refusal(unsubscribeFromChannels(domain, hamlet, { names: ['Book club'], principals: [othello.user.id] })),
    ).toMatchObject({ msg: 'Insufficient permission' });
    expect(await subscribersOf(id)).toEqual([3]);
    expect(
      await unsubscribeFromChannels(domain, iago, { names: ['Book club'], principals: [othello.user.id] }),
    ).toMatchObject({ removed: ['Book club'] });
    expect(await subscribersOf(id)).toEqual([]);
    expect(
      await refusal(
        unsubscribeFromChannels(domain, hamlet, { names: ['Atlantis', 'Book club'], principals: undefined }),
      ),
    ).toMatchObject({ msg: 'Channel(s) (Atlantis) do not exist' });
  });

  it('makes a channel private: non-subscribers lose it, are told so, and may no longer list its members', async () => {
    const { id } = await create(iago, 'Side room', [iago.user.id, hamlet.user.id]);
    expect(await channelMembers(domain, othello, id)).toEqual({ subscribers: [1, 2] });
    await updateChannel(domain, iago, id, { isPrivate: true, permissions: {} });
    const [privacy] = (await eventsOf(contracts.streamUpdated)).filter(
      (e) => e.stream.stream_id === id && e.changes.some((c) => c.property === 'invite_only'),
    );
    expect(privacy!.user_ids).toEqual([1, 2]);
    // Othello could see the public channel (the guest, not subscribed, never could); now only its subscribers and
    // the organization's administrators (Iago is both) see it.
    expect(privacy!.lost_user_ids).toEqual([3]);
    expect(await refusal(channelMembers(domain, othello, id))).toMatchObject({ msg: 'Invalid channel ID' });
    expect(await channelMembers(domain, hamlet, id)).toEqual({ subscribers: [1, 2] });
    // A member who is not the channel's administrator changes nothing.
    expect(await refusal(updateChannel(domain, hamlet, id, { isPrivate: false, permissions: {} }))).toMatchObject({
      msg: 'You do not have permission to administer this channel.',
    });
    expect((await channelNamed('Side room')).inviteOnly).toBe(true);
  });

  it('renames a channel unless the name is taken, and archives it once: readable, closed to new messages', async () => {
    const { id } = await create(iago, 'Old project', [iago.user.id, hamlet.user.id]);
    await create(iago, 'New project', [iago.user.id]);
    expect(await refusal(updateChannel(domain, iago, id, { newName: 'NEW PROJECT', permissions: {} }))).toMatchObject({
      msg: 'Channel name already in use.',
    });
    await updateChannel(domain, iago, id, { newName: 'Finished project', permissions: {} });
    expect((await channelNamed('finished project')).id).toBe(id);
    expect(await domain.channels.channelByName(REALM, 'Old project')).toBeNull();

    const last = await sendToChannel(domain, hamlet, 't', 'last words', 'Finished project');
    expect(await refusal(archiveChannel(domain, hamlet, id))).toMatchObject({
      msg: 'You do not have permission to administer this channel.',
    });
    await archiveChannel(domain, iago, id);
    expect(await refusal(archiveChannel(domain, iago, id))).toMatchObject({ msg: 'Channel is already deactivated' });
    expect(await refusal(sendToChannel(domain, hamlet, 't', 'more', 'Finished project'))).toMatchObject({
      msg: "Not authorized to send to channel 'Finished project'",
    });
    expect((await domain.messages.messageById(last))?.content).toBe('last words');
    expect(await subscribersOf(id)).toEqual([1, 2]);
  });
});
