import { randomUUID } from 'node:crypto';
import { contracts, outboxRecord, type PayloadOf } from '@confab/events';
import type { Actor } from '../src/domain/actor';
import { sendMessage } from '../src/domain/send';
import type { SendWrite } from '../src/repositories/send-sql';
import { messagingWorld, type TestDomain } from './fixtures';

/** Group commit (repositories/group-commit.ts) on a real PostgreSQL: concurrent sends share statements. */
describe('group commit of sends', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;
  let template: SendWrite;

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'groupcommit',
      pool: 8,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
      ],
    });
    ({ domain, drop: close } = world);
    hamlet = world.actors.hamlet!;
    // Two sends through the domain: the second is the common shape (channel known, topic policy settled).
    const send = domain.messages.send.bind(domain.messages);
    domain.messages.send = (write, executor) => {
      template = write;
      return send(write, executor);
    };
    for (const content of ['first', 'second'])
      await sendMessage(domain, hamlet, {
        type: 'stream',
        to: 'Verona',
        topic: 'lunch',
        content,
        queueId: undefined,
        localId: undefined,
        readBySender: undefined,
        client: 'test',
      });
    domain.messages.send = send;
  });

  afterAll(async () => {
    await close();
  });

  /** A copy of a real send's write with new content and a new event id (or the given one). */
  const variant = (content: string, eventId: string = randomUUID()): SendWrite => {
    const write = structuredClone(template);
    write.message.content = content;
    write.sentEvent.eventId = eventId;
    (write.sentEvent.envelope as { event_id: string }).event_id = eventId;
    return write;
  };

  const contentOf = async (id: number) =>
    (await domain.store.db.message.findUnique({ where: { id }, select: { content: true } }))?.content;

  it('completes the events only some sends carry (bots triggered, links to preview) with their own message ids', async () => {
    const meta = { realmId: hamlet.realm.id, requestId: 'test' };
    const writes = Array.from({ length: 12 }, (_, i) => {
      const write = variant(`for the bot ${i}`);
      const message = (write.sentEvent.envelope.payload as PayloadOf<typeof contracts.messageSent>).message;
      const idEvents: NonNullable<typeof write.idEvents> = [];
      if (i % 2 === 0)
        idEvents.push({
          record: outboxRecord(
            contracts.outgoingWebhookTriggered,
            { message: { ...message, content: `for the bot ${i}` }, bots: [{ user_id: 2, trigger: 'mention' }] },
            meta,
          ),
          idPath: '{payload,message,id}',
        });
      if (i % 3 === 0)
        idEvents.push({
          record: outboxRecord(
            contracts.linkPreviewsRequested,
            { message_id: 0, realm_id: hamlet.realm.id, content: `for the bot ${i}`, urls: [`https://e.example/${i}`] },
            meta,
          ),
          idPath: '{payload,message_id}',
        });
      if (idEvents.length > 0) write.idEvents = idEvents;
      return write;
    });
    const sent = await Promise.all(writes.map((w) => domain.messages.send(w)));
    const carried = writes.flatMap((w, i) => (w.idEvents ?? []).map((e) => ({ eventId: e.record.eventId, i })));
    const rows = await domain.store.db.outbox.findMany({ where: { eventId: { in: carried.map((t) => t.eventId) } } });
    expect(rows).toHaveLength(6 + 4);
    for (const { eventId, i } of carried) {
      const row = rows.find((r) => r.eventId === eventId)!;
      if (row.routingKey === 'outgoing_webhook.triggered') {
        const payload = (row.envelope as { payload: { message: { id: number; content: string } } }).payload;
        expect(payload.message).toMatchObject({ id: sent[i]!.messageId, content: `for the bot ${i}` });
        expect(contracts.outgoingWebhookTriggered.schema.safeParse(payload).success).toBe(true);
      } else {
        expect(row.routingKey).toBe('link_previews.requested');
        const payload = (row.envelope as { payload: { message_id: number; urls: string[] } }).payload;
        expect(payload).toMatchObject({ message_id: sent[i]!.messageId, urls: [`https://e.example/${i}`] });
        expect(contracts.linkPreviewsRequested.schema.safeParse(payload).success).toBe(true);
      }
    }
  });

  it('writes concurrent sends together, each with its own id, rows and complete message.sent event', async () => {
    const before = { ...domain.messages.group.stats };
    const writes = Array.from({ length: 24 }, (_, i) => variant(`together ${i}`));
    const sent = await Promise.all(writes.map((w) => domain.messages.send(w)));
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(24);
    for (const [i, s] of sent.entries()) {
      expect(await contentOf(s.messageId)).toBe(`together ${i}`);
      expect(s.userIds).toEqual([1, 2]);
    }
    const stats = domain.messages.group.stats;
    expect(stats.largestBatch).toBeGreaterThan(1);
    expect(stats.statements - before.statements).toBeLessThan(24);
    const events = await domain.store.db.outbox.findMany({
      where: { eventId: { in: writes.map((w) => w.sentEvent.eventId) } },
    });
    const ids = events.map((e) => (e.envelope as { payload: { message: { id: number }; user_ids: number[] } }).payload);
    expect(ids.map((p) => p.message.id).sort((a, b) => a - b)).toEqual(
      sent.map((s) => s.messageId).sort((a, b) => a - b),
    );
    for (const p of ids) expect(p.user_ids).toEqual([1, 2]);
  });

  it('fails only the bad send of a batch; the others are written', async () => {
    const taken = template.sentEvent.eventId; // already in the outbox: its unique key refuses a second row
    const writes = Array.from({ length: 12 }, (_, i) => (i === 5 ? variant('bad', taken) : variant(`mixed ${i}`)));
    const results = await Promise.allSettled(writes.map((w) => domain.messages.send(w)));
    expect(results.map((r) => r.status)).toEqual(writes.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect(await domain.store.db.message.count({ where: { content: 'bad' } })).toBe(0);
    for (const [i, r] of results.entries()) {
      if (r.status === 'fulfilled') expect(await contentOf(r.value.messageId)).toBe(`mixed ${i}`);
    }
  });

  it('writes a lone send at once, alone', async () => {
    const before = domain.messages.group.stats.statements;
    const { messageId } = await domain.messages.send(variant('lone'));
    expect(await contentOf(messageId)).toBe('lone');
    expect(domain.messages.group.stats.statements - before).toBe(1);
  });
});
