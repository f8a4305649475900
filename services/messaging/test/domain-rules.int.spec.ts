import { contracts, parseEnvelope } from '@confab/events';
import { FLAG } from '@confab/zulip';
import type { Actor } from '../src/domain/actor';
import { deleteMessage } from '../src/domain/message-actions';
import { editMessage, type EditInput } from '../src/domain/message-edit';
import { addReaction, removeReaction } from '../src/domain/reactions';
import { subscribeToChannels } from '../src/domain/channels';
import { createDrafts, editDraft, listDrafts } from '../src/domain/drafts';
import {
  messagingWorld,
  PUBLIC_CHANNEL,
  realmRecord,
  refusal,
  sendToChannel,
  type TestDomain,
  userRecord,
} from './fixtures';

/**
 * Domain rules of messaging, checked on the domain against PostgreSQL (the integration tier, docs/architecture.md
 * "Tests"): reactions and the Notification Bot's notices, including what takes time to reach end to end.
 */
describe('messaging rules against PostgreSQL', () => {
  const BOT = 90;
  const permissions = {
    ...realmRecord.permissions,
    can_move_messages_between_topics_group: 'role:everyone',
    can_resolve_topics_group: 'role:everyone',
    can_create_private_channel_group: 'role:members',
    can_delete_own_message_group: 'role:everyone',
  };
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;
  let othello: Actor;
  let cordelia: Actor;

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'rules',
      pool: 8,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
        [3, 'cordelia'],
      ],
      notificationBot: BOT,
      realm: { permissions },
    });
    ({ domain, drop: close } = world);
    [hamlet, othello, cordelia] = [world.actors.hamlet!, world.actors.othello!, world.actors.cordelia!];
  });

  afterAll(async () => {
    await close();
  });

  const send = (actor: Actor, topic: string, content: string) => sendToChannel(domain, actor, topic, content);
  const edit = (actor: Actor, id: number, input: Partial<EditInput>) =>
    editMessage(domain, actor, id, {
      propagateMode: 'change_all',
      notifyOldThread: false,
      notifyNewThread: true,
      ...input,
    });
  const topicMessages = (topic: string) =>
    domain.store.db.message.findMany({ where: { topic }, orderBy: { id: 'asc' } });
  const code = async (promise: Promise<unknown>) => {
    const { code, msg } = await refusal(promise);
    return { code, msg };
  };

  describe('reactions', () => {
    it('lets others vote for a reaction under its name, once each, and tells everyone who has the message', async () => {
      const id = await send(hamlet, 'votes', 'lunch?');
      await addReaction(domain, othello, id, { emojiName: 'thumbs_up', emojiCode: undefined, reactionType: undefined });
      // A vote by code keeps the reaction's name, whatever name the voter gave.
      await addReaction(domain, cordelia, id, { emojiName: '+1', emojiCode: '1f44d', reactionType: 'unicode_emoji' });
      const stored = await domain.reactions.forMessages([id]);
      expect(stored.get(id)!.map((r) => [r.userId, r.emojiName, r.emojiCode])).toEqual([
        [2, 'thumbs_up', '1f44d'],
        [3, 'thumbs_up', '1f44d'],
      ]);
      expect(
        await code(
          addReaction(domain, othello, id, {
            emojiName: 'thumbs_up',
            emojiCode: '1f44d',
            reactionType: 'unicode_emoji',
          }),
        ),
      ).toEqual({ code: 'REACTION_ALREADY_EXISTS', msg: 'Reaction already exists.' });

      const rows = await domain.store.db.outbox.findMany({ where: { routingKey: 'reaction.added' } });
      const added = rows.map((r) => parseEnvelope(contracts.reactionAdded, r.envelope).payload);
      expect(added.filter((e) => e.message_id === id).map((e) => [e.user_id, e.emoji_name, e.user_ids])).toEqual([
        [2, 'thumbs_up', [1, 2, 3]],
        [3, 'thumbs_up', [1, 2, 3]],
      ]);
    });

    it("refuses unknown emoji, and removing a reaction the user doesn't have", async () => {
      const id = await send(hamlet, 'votes', 'dinner?');
      expect(
        await code(
          addReaction(domain, othello, id, { emojiName: 'no_such', emojiCode: undefined, reactionType: undefined }),
        ),
      ).toEqual({ code: 'BAD_REQUEST', msg: "Emoji 'no_such' does not exist" });
      expect(
        await code(
          removeReaction(domain, othello, id, {
            emojiName: 'octopus',
            emojiCode: undefined,
            reactionType: 'unicode_emoji',
          }),
        ),
      ).toEqual({ code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." });
    });
  });

  describe("the Notification Bot's notices", () => {
    it('marks a resolution unread only for followers of the topic, and read for the mover', async () => {
      const id = await send(hamlet, 'bug 1', 'it crashes'); // Hamlet follows the topic he started.
      await edit(othello, id, { topic: '✔ bug 1' });
      const [, notice] = await topicMessages('✔ bug 1');
      expect(notice).toMatchObject({ senderId: BOT, content: '@_**Othello|2** has marked this topic as resolved.' });
      const rows = await domain.store.db.userMessage.findMany({
        where: { messageId: notice!.id },
        orderBy: { userId: 'asc' },
      });
      expect(rows.map((r) => [r.userId, (r.flags & FLAG.read) !== 0])).toEqual([
        [1, false],
        [2, true],
        [3, true],
      ]);
    });

    it('deletes the notice when the resolution is undone within a minute, and posts a new one after it', async () => {
      const id = await send(hamlet, 'bug 2', 'it hangs');
      await edit(othello, id, { topic: '✔ bug 2' });
      await edit(othello, id, { topic: 'bug 2' });
      expect((await topicMessages('bug 2')).map((m) => m.id)).toEqual([id]);

      await edit(othello, id, { topic: '✔ bug 2' });
      const [, notice] = await topicMessages('✔ bug 2');
      // A minute later (as if): undoing posts its own notice and keeps the first.
      await domain.store.db.message.update({
        where: { id: notice!.id },
        data: { dateSent: new Date(Date.now() - 61_000) },
      });
      await edit(othello, id, { topic: 'bug 2' });
      expect((await topicMessages('bug 2')).map((m) => m.content)).toEqual([
        'it hangs',
        '@_**Othello|2** has marked this topic as resolved.',
        '@_**Othello|2** has marked this topic as unresolved.',
      ]);
    });

    it('says how many messages moved when the topic had others left or waiting', async () => {
      const ids = [
        await send(hamlet, 'split', 'one'),
        await send(hamlet, 'split', 'two'),
        await send(hamlet, 'split', 'three'),
      ];
      await edit(othello, ids[1]!, { topic: 'split off', propagateMode: 'change_later', notifyOldThread: true });
      expect((await topicMessages('split off')).map((m) => m.content)).toEqual([
        'two',
        'three',
        '2 messages were moved here from #**Verona>split** by @_**Othello|2**.',
      ]);
      expect((await topicMessages('split')).map((m) => m.content)).toEqual([
        'one',
        '2 messages were moved from this topic to #**Verona>split off** by @_**Othello|2**.',
      ]);
    });
  });

  describe('drafts', () => {
    const draft = (type: '' | 'stream' | 'private', to: number[], content = 'half a thought') => ({
      type,
      to,
      topic: type === 'stream' ? 'plans' : '',
      content,
    });

    it('stores all of a batch or none of it, and says what was added', async () => {
      const verona = (await domain.channels.channelByName(7, 'Verona'))!.id;
      expect(
        await code(createDrafts(domain, cordelia, [draft('stream', [verona]), draft('stream', [verona, verona + 1])])),
      ).toEqual({ code: 'BAD_REQUEST', msg: 'Must specify exactly 1 channel ID for channel messages' });
      expect((await listDrafts(domain, cordelia)).count).toBe(0);

      const ids = await createDrafts(domain, cordelia, [draft('stream', [verona]), draft('', [])]);
      expect((await listDrafts(domain, cordelia)).drafts.map((d) => [d.id, d.type, d.to])).toEqual([
        [ids[0], 'stream', [verona]],
        [ids[1], '', []],
      ]);
      const rows = await domain.store.db.outbox.findMany({ where: { routingKey: contracts.draftsAdded.type } });
      const added = rows.map((r) => parseEnvelope(contracts.draftsAdded, r.envelope).payload);
      expect(added.filter((e) => e.user_id === 3).map((e) => e.drafts.map((d) => d.id))).toEqual([ids]);
    });

    it('addresses direct drafts as the conversation shows, and refuses deactivated users', async () => {
      const [one, group] = await createDrafts(domain, hamlet, [draft('private', [2]), draft('private', [3, 2])]);
      const listed = new Map((await listDrafts(domain, hamlet)).drafts.map((d) => [d.id, d.to]));
      expect([listed.get(one!), listed.get(group!)]).toEqual([[2], [1, 2, 3]]);

      await domain.store.db.$transaction((tx) =>
        domain.readModel.upsertUser(tx, { ...userRecord(4, 'yorick'), is_active: false }),
      );
      expect(await code(editDraft(domain, hamlet, one!, draft('private', [4])))).toEqual({
        code: 'BAD_REQUEST',
        msg: "'yorick@zulip.com' is no longer using Zulip.",
      });
      expect(new Map((await listDrafts(domain, hamlet)).drafts.map((d) => [d.id, d.to])).get(one!)).toEqual([2]);
    });

    it('refuses a draft to a private channel the user cannot see, as if it did not exist', async () => {
      await subscribeToChannels(domain, hamlet, {
        subscriptions: [{ name: 'elsinore' }],
        principals: [1],
        authorizationErrorsFatal: true,
        settings: { ...PUBLIC_CHANNEL, inviteOnly: true },
      });
      const elsinore = (await domain.channels.channelByName(7, 'elsinore'))!.id;
      expect(await code(createDrafts(domain, othello, [draft('stream', [elsinore])]))).toEqual({
        code: 'BAD_REQUEST',
        msg: 'Invalid channel ID',
      });
      expect(await createDrafts(domain, hamlet, [draft('stream', [elsinore])])).toHaveLength(1);
    });
  });

  describe('deleting messages', () => {
    it("holds senders to the organization's time limit, and not those who may delete any message", async () => {
      const stale = await send(hamlet, 'old news', 'soon stale');
      // Sent eleven minutes ago (as if): beyond the fixtures' ten-minute limit.
      await domain.store.db.message.update({
        where: { id: stale },
        data: { dateSent: new Date(Date.now() - 660_000) },
      });
      expect(await code(deleteMessage(domain, hamlet, stale))).toEqual({
        code: 'BAD_REQUEST',
        msg: 'The time limit for deleting this message has passed',
      });
      expect(await code(deleteMessage(domain, othello, stale))).toEqual({
        code: 'BAD_REQUEST',
        msg: "You don't have permission to delete this message",
      });
      const fresh = await send(hamlet, 'old news', 'a typo');
      await deleteMessage(domain, hamlet, fresh);
      expect(await domain.messages.messageById(fresh)).toBeNull();

      await domain.store.db.$transaction(async (tx) => {
        await domain.readModel.upsertRealm(tx, {
          ...realmRecord,
          permissions: { ...permissions, can_delete_any_message_group: 'role:administrators' },
        });
        await domain.readModel.upsertUser(tx, userRecord(9, 'iago', 200));
      });
      const realm = (await domain.readModel.realmById(hamlet.realm.id))!;
      const iago: Actor = { user: (await domain.readModel.userById(9))!, realm, requestId: 'test' };
      await deleteMessage(domain, iago, stale);
      expect(await domain.messages.messageById(stale)).toBeNull();
    });
  });
});
