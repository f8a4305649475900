import { randomUUID } from 'node:crypto';
import { serviceDatabase } from '@confab/devkit';
import type { contracts } from '@confab/events';
import { messagesSent, type SentEvent } from '../src/domain/message-notifications';
import { NotificationsRepository } from '../src/repositories/notifications.repository';
import { createPrisma, type Db } from '../src/repositories/prisma';
import { channelMessage, SENDER } from './fixtures';

/**
 * Consecutive message.sent events taken together by the push consumer (one statement for all of them) against a
 * real PostgreSQL: each message records exactly its receivers, once, however the batch repeats earlier events (a
 * redelivery after a crash), and each recorded message gets one job.
 */
jest.setTimeout(30_000);

let database: { url: string; drop: () => Promise<void> } | undefined;
let prisma: Db;
let repo: NotificationsRepository;

beforeAll(async () => {
  database = await serviceDatabase('push', 'pushbatch');
  prisma = createPrisma(database.url, 2);
  repo = new NotificationsRepository(prisma);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop().catch(() => undefined);
});

const CONSUMER = 'push.notifications';
const direct = (id: number): contracts.MessageRecord => ({
  ...channelMessage,
  id,
  type: 'private',
  stream_id: undefined,
  display_recipient: [],
  subject: '',
  content: `direct ${id}`,
});
const sent = (id: number, to: number[], eventId = randomUUID()): SentEvent => ({
  claim: { consumer: CONSUMER, eventId },
  payload: {
    message: direct(id),
    user_ids: [SENDER, ...to],
    flags: {},
    stream: null,
    local_id: null,
    sender_queue_id: null,
  },
  meta: { realmId: 3, requestId: `r-${id}` },
});

function context() {
  const scheduled: { messageId: number; requestId: string | null }[] = [];
  const ctx = {
    store: repo,
    relayConfigured: true,
    scheduler: {
      scheduleMessage: async () => undefined,
      scheduleRemoval: async () => undefined,
      scheduleMessages: async (list: readonly { messageId: number; requestId: string | null }[]) =>
        void scheduled.push(...list),
    },
  };
  return { ctx, scheduled };
}

const rows = async () =>
  (
    await prisma.$queryRawUnsafe<{ message_id: number; user_id: number; trigger: string; status: string }[]>(
      'SELECT message_id, user_id, trigger, status FROM message_notifications ORDER BY 1, 2',
    )
  ).map((r) => [r.message_id, r.user_id, r.trigger, r.status]);

describe('message.sent taken in batches by the push consumer', () => {
  it("records each message's receivers once and queues one job per message, redeliveries in the batch included", async () => {
    const first = [sent(101, [2]), sent(102, [2, 3]), sent(103, [])];
    const { ctx, scheduled } = context();
    expect(await messagesSent(ctx, first)).toBe(2);
    expect(scheduled.map((s) => s.messageId).sort()).toEqual([101, 102]);
    expect(scheduled.find((s) => s.messageId === 101)?.requestId).toBe('r-101');
    expect(await rows()).toEqual([
      [101, 2, 'private_message', 'pending'],
      [102, 2, 'private_message', 'pending'],
      [102, 3, 'private_message', 'pending'],
    ]);

    // The broker hands the same events over again, with a new one among them and one repeated in the batch.
    const again = context();
    const fresh = sent(104, [4]);
    expect(await messagesSent(again.ctx, [first[0]!, fresh, first[1]!, fresh])).toBe(1);
    expect(again.scheduled.map((s) => s.messageId)).toEqual([104]);
    expect(await rows()).toEqual([
      [101, 2, 'private_message', 'pending'],
      [102, 2, 'private_message', 'pending'],
      [102, 3, 'private_message', 'pending'],
      [104, 4, 'private_message', 'pending'],
    ]);
    const kept = await prisma.$queryRawUnsafe<{ message_id: number; content: string }[]>(
      "SELECT message_id, message->>'content' AS content FROM notified_messages ORDER BY 1",
    );
    expect(kept).toEqual([
      { message_id: 101, content: 'direct 101' },
      { message_id: 102, content: 'direct 102' },
      { message_id: 104, content: 'direct 104' },
    ]);
  });

  it('records nothing and queues nothing where no relay is configured', async () => {
    const { ctx, scheduled } = context();
    expect(await messagesSent({ ...ctx, relayConfigured: false }, [sent(201, [2])])).toBe(0);
    expect(scheduled).toEqual([]);
    expect((await rows()).filter(([id]) => id === 201)).toEqual([]);
  });
});
