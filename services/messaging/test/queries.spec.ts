import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutboxRecord } from '@confab/events';
import { FLAG } from '@confab/zulip';
import type { MessageQuery } from '../src/domain/narrow';
import type { NarrowRange } from '../src/domain/message-store';
import { MessagesRepository } from '../src/repositories/messages.repository';
import type { SendWrite } from '../src/repositories/send-sql';
import type { SqlExecutor } from '../src/repositories/sql';
import type { Store } from '../src/repositories/store';

/**
 * The hot statements as checked-in SQL (services/messaging/src/queries/*.sql, as immich keeps its queries): each file
 * is the text the repository runs for one fixed shape, captured from the repository's own calls, so a change to the
 * SQL shows in review. After changing the SQL: `pnpm --filter @confab/messaging queries` rewrites the files.
 */
const QUERIES = join(__dirname, '..', 'src', 'queries');
const UPDATE = process.env.UPDATE_QUERIES === '1';

/** A repository over a store whose every statement is recorded (and answered with `rows`). */
function recording(rows: (text: string) => unknown[]) {
  const statements: string[] = [];
  const executor: SqlExecutor = {
    query: async <T>(text: string) => {
      statements.push(text);
      return Promise.resolve(rows(text) as T[]);
    },
  };
  const store = { sql: Object.assign(executor, { planOnce: executor }), reader: () => executor, committed: () => {} };
  const repository = new MessagesRepository(store as unknown as Store, { lanes: 1, maxBatch: 16 });
  return { repository, statements };
}

const sentRow = { id: 1, user_ids: [], flags: [], sender_policy: null };
const event = (routingKey: string): OutboxRecord =>
  ({ eventId: '00000000-0000-4000-8000-000000000000', routingKey, envelope: {} }) as unknown as OutboxRecord;

/** A channel message as the common send writes it (facts read, nobody's topic policy changes). */
function channelSend(): SendWrite {
  return {
    message: {
      realmId: 1,
      senderId: 10,
      recipientId: 100,
      channelId: 5,
      topic: 'lunch',
      topicKey: 'lunch',
      content: 'hi',
      renderedContent: '<p>hi</p>',
      dateSent: new Date(0),
      sendingClient: 'test',
      isMeMessage: false,
      hasAttachment: false,
      hasImage: false,
      hasLink: false,
    },
    delivery: { channelId: 5, extraUserIds: [], baseFlags: 0, flagged: [{ userIds: [10], bit: FLAG.read }] },
    sentEvent: event('message.sent'),
    otherEvents: [],
    policies: [],
    setFirstMessageId: false,
  };
}

const SHAPES: Record<string, { about: string; run: () => Promise<string[]> }> = {
  'send.channel': {
    about: 'POST /messages to a channel: the common statement (MessagesRepository.send, alone)',
    run: async () => {
      const { repository, statements } = recording(() => [sentRow]);
      await repository.send(channelSend());
      return statements;
    },
  },
  'send.channel-local-id': {
    about: "POST /messages to a channel with the client's queue_id and local_id",
    run: async () => {
      const { repository, statements } = recording(() => [sentRow]);
      await repository.send({ ...channelSend(), clientIds: { queueId: 'q', localId: '1' } });
      return statements;
    },
  },
  'send.channel-sender-policy': {
    about: "POST /messages to a channel whose facts were not read: the statement decides the sender's topic policy",
    run: async () => {
      const { repository, statements } = recording(() => [sentRow]);
      const senderPolicy = {
        follow: 3,
        unmute: 2,
        historyPublic: true,
        topicName: 'lunch',
        event: event('user_topic'),
      };
      await repository.send({ ...channelSend(), senderPolicy });
      return statements;
    },
  },
  'send.direct': {
    about: 'POST /messages to a direct conversation',
    run: async () => {
      const { repository, statements } = recording(() => [sentRow]);
      const write = channelSend();
      write.message = { ...write.message, channelId: null, topic: '', topicKey: '' };
      write.delivery = { ...write.delivery, channelId: null, extraUserIds: [10, 11], baseFlags: FLAG.is_private };
      await repository.send(write);
      return statements;
    },
  },
  'send.batch-3': {
    about: 'three channel sends that waited for the lane, written together (group commit)',
    run: async () => {
      const { repository, statements } = recording((text) =>
        text.includes('UNION ALL') ? [0, 1, 2].map((i) => ({ ...sentRow, i })) : [sentRow],
      );
      await Promise.all([1, 2, 3, 4].map(() => repository.send(channelSend())));
      return statements.filter((text) => text.includes('UNION ALL'));
    },
  },
  'send.facts': {
    about: "what a channel send reads first (the sender's subscription and topic policy, mentioned users)",
    run: async () => {
      const { repository, statements } = recording(() => []);
      await repository.sendFacts({
        userId: 10,
        channelId: 5,
        recipientId: 100,
        topicKey: 'lunch',
        historyPublic: true,
        mentionedUserIds: [],
      });
      return statements;
    },
  },
  'fetch.channel-topic-newest': {
    about: 'GET /messages narrowed to a channel and topic, anchor newest, 50 before',
    run: async () => {
      const { repository, statements } = recording(() => []);
      const query: MessageQuery = {
        userId: 10,
        scope: { kind: 'history', recipientIds: [100] },
        terms: [{ kind: 'topic', topicKey: 'lunch', negated: false }],
      };
      await repository.fetchRange(query, range({ anchor: 1_000_000_000_000, numBefore: 50, anchoredRight: true }));
      return statements;
    },
  },
  'fetch.all-around-anchor': {
    about: "GET /messages of the user's own messages (no narrow), 50 before and 50 after an anchor",
    run: async () => {
      const { repository, statements } = recording(() => []);
      const query: MessageQuery = { userId: 10, scope: { kind: 'user' }, terms: [] };
      await repository.fetchRange(query, range({ anchor: 500, numBefore: 50, numAfter: 50 }));
      return statements;
    },
  },
  'fetch.first-unread': {
    about: "GET /messages with anchor first_unread: the user's oldest unread message",
    run: async () => {
      const { repository, statements } = recording(() => []);
      await repository.firstUnread({ userId: 10, scope: { kind: 'user' }, terms: [] });
      return statements;
    },
  },
  'fetch.messages-by-ids': {
    about: 'GET /messages: the rows of the messages a narrow found',
    run: async () => {
      const { repository, statements } = recording(() => []);
      await repository.messagesByIds([1, 2]);
      return statements;
    },
  },
};

function range(given: Partial<NarrowRange>): NarrowRange {
  return {
    anchor: 0,
    includeAnchor: true,
    numBefore: 0,
    numAfter: 0,
    anchoredLeft: false,
    anchoredRight: false,
    ...given,
  };
}

const fileText = (name: string, about: string, statements: readonly string[]) =>
  `-- ${about}.\n-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.\n\n` +
  statements.map((text) => `${text.trim()};\n`).join('\n');

describe('the hot statements (services/messaging/src/queries)', () => {
  it.each(Object.keys(SHAPES))('%s.sql is the SQL the repository runs', async (name) => {
    const shape = SHAPES[name]!;
    const statements = await shape.run();
    expect(statements.length).toBeGreaterThan(0);
    const expected = fileText(name, shape.about, statements);
    const file = join(QUERIES, `${name}.sql`);
    if (UPDATE) writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
