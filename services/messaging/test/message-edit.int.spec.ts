import { ConfabError } from '@confab/errors';
import { contracts, parseEnvelope } from '@confab/events';
import type { Actor } from '../src/domain/actor';
import { editMessage, type EditInput } from '../src/domain/message-edit';
import { messageHistory } from '../src/domain/message-history';
import { messagingWorld, realmRecord, type TestDomain, sendToChannel } from './fixtures';

const edit = (overrides: Partial<EditInput>): EditInput => ({
  propagateMode: 'change_one',
  notifyOldThread: false,
  notifyNewThread: false,
  ...overrides,
});

/** Time limits and concurrent edits, which the end-to-end suite cannot reach without waiting for minutes. */
describe('editing messages against PostgreSQL', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;
  let othello: Actor;
  let shiva: Actor;

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'message_edit',
      pool: 10,
      realm: {
        allow_message_editing: true,
        message_content_edit_limit_seconds: 600,
        move_messages_within_stream_limit_seconds: 3600,
        move_messages_between_streams_limit_seconds: 3600,
        permissions: { ...realmRecord.permissions, can_move_messages_between_topics_group: 'role:everyone' },
      },
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
        [3, 'shiva', 300],
      ],
    });
    ({ domain, drop: close } = world);
    [hamlet, othello, shiva] = [world.actors.hamlet!, world.actors.othello!, world.actors.shiva!];
  });

  afterAll(async () => {
    await close();
  });

  const send = (actor: Actor, topic: string, content: string) => sendToChannel(domain, actor, topic, content);
  const age = (id: number, seconds: number) =>
    domain.store.sql.query(`UPDATE messages SET date_sent = now() - make_interval(secs => $2) WHERE id = $1`, [
      id,
      seconds,
    ]);
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfabError);
    const { message, code, data } = error as ConfabError;
    return { message, code, data };
  };

  it('allows content edits up to the limit and its 20-second grace, not after', async () => {
    const id = await send(hamlet, 'limits', 'v1');
    await age(id, 615);
    await editMessage(domain, hamlet, id, edit({ content: 'v2' }));
    await age(id, 625);
    expect(await refusal(editMessage(domain, hamlet, id, edit({ content: 'v3' })))).toMatchObject({
      message: 'The time limit for editing this message has passed',
      code: 'BAD_REQUEST',
    });
  });

  it("limits topic edits by others' time, but not moderators'", async () => {
    const id = await send(hamlet, 'old topic', 'x');
    await age(id, 3700);
    expect(await refusal(editMessage(domain, othello, id, edit({ topic: 'new topic' })))).toMatchObject({
      message: "The time limit for editing this message's topic has passed.",
    });
    await editMessage(domain, shiva, id, edit({ topic: 'new topic' }));
    const history = await messageHistory(domain, hamlet, id, false);
    expect(history.message_history.at(-1)).toMatchObject({ prev_topic: 'old topic', topic: 'new topic', user_id: 3 });
  });

  it('refuses change_all when older messages of the topic are past the limit, saying which may move', async () => {
    const old = await send(hamlet, 'mixed ages', 'old');
    const recent = await send(hamlet, 'mixed ages', 'recent');
    const newest = await send(othello, 'mixed ages', 'newest');
    await age(old, 7200);
    const error = await refusal(
      editMessage(domain, othello, newest, edit({ topic: 'renamed', propagateMode: 'change_all' })),
    );
    expect(error).toMatchObject({
      message: 'You only have permission to move the 2/3 most recent messages in this topic.',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      data: { first_message_id_allowed_to_move: recent, total_messages_in_topic: 3, total_messages_allowed_to_move: 2 },
    });
    // change_later from the first movable message is allowed.
    await editMessage(domain, othello, recent, edit({ topic: 'renamed', propagateMode: 'change_later' }));
    const moved = await domain.store.sql.query<{ id: number }>(
      `SELECT id FROM messages WHERE topic = 'renamed' ORDER BY id`,
      [],
    );
    expect(moved.map((m) => m.id)).toEqual([recent, newest]);
  });

  it('serialises concurrent edits of one message: both land in the history, each event says what it replaced', async () => {
    const id = await send(hamlet, 'race', 'start');
    await Promise.all(['left', 'right'].map((content) => editMessage(domain, hamlet, id, edit({ content }))));
    const history = (await messageHistory(domain, hamlet, id, false)).message_history;
    expect(history).toHaveLength(3);
    const [, first, second] = history;
    expect(first!.prev_content).toBe('start');
    expect(second!.prev_content).toBe(first!.content);
    const rows = await domain.store.db.outbox.findMany({ where: { routingKey: 'message.updated' } });
    const events = rows
      .map((r) => parseEnvelope(contracts.messageUpdated, r.envelope).payload)
      .filter((e) => e.message_id === id);
    expect(events.map((e) => e.orig_content).sort()).toEqual(['start', String(first!.content)].sort());
  });
});
