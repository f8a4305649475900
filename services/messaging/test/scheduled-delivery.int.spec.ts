import type { Actor } from '../src/domain/actor';
import { deliverDueBatch, DELIVERY_BATCH } from '../src/domain/scheduled-batch';
import { deliverAllDue } from '../src/domain/scheduled-drain';
import { createScheduled, editScheduled, type DeliveryQueue } from '../src/domain/scheduled-messages';
import { deliverScheduled } from '../src/domain/scheduled-send';
import { messagingWorld, type TestDomain } from './fixtures';

/** Records what would go to BullMQ; the tests call the delivery themselves. */
class RecordingQueue implements DeliveryQueue {
  readonly scheduled: Date[] = [];
  async schedule(at: Date): Promise<void> {
    this.scheduled.push(at);
  }
}

describe('scheduled delivery against PostgreSQL', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;
  let verona: number;
  const queue = new RecordingQueue();

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'scheduled',
      pool: 12,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
      ],
    });
    ({ domain, drop: close, channelId: verona } = world);
    hamlet = world.actors.hamlet!;
  });

  afterAll(async () => {
    await close();
  });

  /** Scheduled a minute ahead, then made due (as if the time had come). */
  async function dueMessage(content: string): Promise<number> {
    const id = await createScheduled(domain, queue, hamlet, {
      type: 'stream',
      to: String(verona),
      topic: 'later',
      content,
      deliverAt: new Date(Date.now() + 60_000),
      readBySender: undefined,
      client: 'test',
    });
    await domain.store.db.scheduledMessage.update({ where: { id }, data: { scheduledAt: new Date() } });
    return id;
  }
  const sentWith = (content: string) => domain.store.db.message.count({ where: { content } });

  it('enqueues the job at the scheduled time when created', async () => {
    const id = await createScheduled(domain, queue, hamlet, {
      type: 'direct',
      to: '[2]',
      topic: undefined,
      content: 'queued',
      deliverAt: new Date(Date.now() + 120_000),
      readBySender: undefined,
      client: 'test',
    });
    const row = await domain.scheduledMessages.get(id);
    expect(queue.scheduled.at(-1)?.getTime()).toBe(row?.scheduledAt.getTime());
    expect(row!.scheduledAt.getTime()).toBeGreaterThan(Date.now() + 100_000);
  });

  it('sends a message once when many deliveries of the same row race', async () => {
    const id = await dueMessage('raced');
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => deliverScheduled(domain, id)));
    expect(outcomes.filter((o) => o.outcome === 'delivered')).toHaveLength(1);
    expect(await sentWith('raced')).toBe(1);
    const row = await domain.store.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    expect(row.delivered).toBe(true);
    const message = await domain.store.db.message.findFirstOrThrow({ where: { content: 'raced' } });
    expect(row.deliveredMessageId).toBe(message.id);
    // The removal is announced with the message, in the same transaction.
    const removed = await domain.store.db.outbox.findMany({ where: { routingKey: 'scheduled_message.removed' } });
    expect(
      removed.some(
        (r) => (r.envelope as { payload: { scheduled_message_id: number } }).payload.scheduled_message_id === id,
      ),
    ).toBe(true);
    expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'gone' });
  });

  it('does not deliver before the time, and tells the job when the time moved', async () => {
    const id = await dueMessage('moved');
    const later = new Date(Date.now() + 3_600_000);
    await editScheduled(domain, queue, hamlet, id, {
      type: undefined,
      to: undefined,
      topic: undefined,
      content: undefined,
      deliverAt: later,
      client: 'test',
    });
    const result = await deliverScheduled(domain, id);
    expect(result).toEqual({ outcome: 'not-due', at: later });
    expect(await sentWith('moved')).toBe(0);
  });

  it('sends the edited text when an edit commits before the delivery', async () => {
    const id = await dueMessage('before edit');
    await editScheduled(domain, queue, hamlet, id, {
      type: undefined,
      to: undefined,
      topic: undefined,
      content: 'after edit',
      deliverAt: undefined,
      client: 'test',
    });
    await domain.store.db.scheduledMessage.update({ where: { id }, data: { scheduledAt: new Date() } });
    expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'delivered', dueAt: expect.any(Date) });
    expect(await sentWith('before edit')).toBe(0);
    expect(await sentWith('after edit')).toBe(1);
  });

  it('marks a message failed when the send is refused at delivery time, and sends nothing', async () => {
    const id = await dueMessage('refused');
    // The channel is archived after scheduling: the delivery-time checks refuse it.
    await domain.store.db.channel.update({ where: { id: verona }, data: { isArchived: true } });
    domain.directory.forgetChannel(verona);
    try {
      expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'failed' });
    } finally {
      await domain.store.db.channel.update({ where: { id: verona }, data: { isArchived: false } });
      domain.directory.forgetChannel(verona);
    }
    const row = await domain.store.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    expect({ failed: row.failed, delivered: row.delivered, failureMessage: row.failureMessage }).toEqual({
      failed: true,
      delivered: false,
      failureMessage: "Not authorized to send to channel 'Verona'",
    });
    expect(await sentWith('refused')).toBe(0);
    expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'gone' });
  });

  it('refuses to send more than 10 minutes late (Zulip’s cutoff)', async () => {
    const id = await dueMessage('too late');
    await domain.store.db.scheduledMessage.update({
      where: { id },
      data: { scheduledAt: new Date(Date.now() - 11 * 60_000) },
    });
    expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'failed' });
    const row = await domain.store.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    expect(row.failureMessage).toBe('Message could not be sent at the scheduled time.');
  });

  it('delivers due messages in batches, each exactly once when batches race, with their rows and events', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await dueMessage(`batched ${i}`));
    const [a, b] = await Promise.all([
      deliverDueBatch(domain, new Date(), 20),
      deliverDueBatch(domain, new Date(), 20),
    ]);
    const rest = await deliverDueBatch(domain, new Date(), 20);
    expect(a.length + b.length + rest.length).toBe(30);
    for (let i = 0; i < 30; i++) expect([i, await sentWith(`batched ${i}`)]).toEqual([i, 1]);
    const rows = await domain.store.db.scheduledMessage.findMany({ where: { id: { in: ids } } });
    const messages = await domain.store.db.message.findMany({ where: { content: { startsWith: 'batched ' } } });
    expect(rows.every((r) => r.delivered && !r.failed)).toBe(true);
    expect(rows.map((r) => r.deliveredMessageId).sort()).toEqual(messages.map((m) => m.id).sort());
    // One event per owner and batch names the messages it delivered: three batches, one owner.
    const delivered = await domain.store.db.outbox.findMany({ where: { routingKey: 'scheduled_message.delivered' } });
    const payloads = delivered
      .map((r) => (r.envelope as { payload: { user_id: number; scheduled_message_ids: number[] } }).payload)
      .filter((p) => p.scheduled_message_ids.some((id) => ids.includes(id)));
    expect(payloads.length).toBeLessThanOrEqual(3);
    expect(payloads.every((p) => p.user_id === hamlet.user.id)).toBe(true);
    const announced = payloads.flatMap((p) => p.scheduled_message_ids);
    expect([...announced].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    for (const id of ids) expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'gone' });
  });

  it('leaves a message the batch cannot send to its own job, which records the refusal', async () => {
    const id = await dueMessage('refused in batch');
    await domain.store.db.channel.update({ where: { id: verona }, data: { isArchived: true } });
    domain.directory.forgetChannel(verona);
    try {
      expect(await deliverDueBatch(domain)).toEqual([]);
      const row = await domain.store.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
      expect({ delivered: row.delivered, failed: row.failed }).toEqual({ delivered: false, failed: false });
      expect(await deliverScheduled(domain, id)).toEqual({ outcome: 'failed' });
    } finally {
      await domain.store.db.channel.update({ where: { id: verona }, data: { isArchived: false } });
      domain.directory.forgetChannel(verona);
    }
    expect(await sentWith('refused in batch')).toBe(0);
  });

  it('drains everything due — more than a batch, then each row the batches left — once each when drains race', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 2 * DELIVERY_BATCH + 7; i++) ids.push(await dueMessage(`drained ${i}`));
    const late = await dueMessage('drained too late');
    await domain.store.db.scheduledMessage.update({
      where: { id: late },
      data: { scheduledAt: new Date(Date.now() - 11 * 60_000) },
    });
    const future = await createScheduled(domain, queue, hamlet, {
      type: 'stream',
      to: String(verona),
      topic: 'later',
      content: 'drained in a minute',
      deliverAt: new Date(Date.now() + 60_000),
      readBySender: undefined,
      client: 'test',
    });
    const [a, b] = await Promise.all([deliverAllDue(domain), deliverAllDue(domain)]);
    expect(a.length + b.length).toBe(ids.length);
    for (let i = 0; i < ids.length; i++) expect([i, await sentWith(`drained ${i}`)]).toEqual([i, 1]);
    const rows = new Map(
      (await domain.store.db.scheduledMessage.findMany({ where: { id: { in: [...ids, late, future] } } })).map((r) => [
        r.id,
        r,
      ]),
    );
    expect(ids.every((id) => rows.get(id)!.delivered)).toBe(true);
    // The batches leave the late row; on its own it is refused with Zulip's text. The future one waits.
    expect(rows.get(late)).toMatchObject({
      delivered: false,
      failed: true,
      failureMessage: 'Message could not be sent at the scheduled time.',
    });
    expect(rows.get(future)).toMatchObject({ delivered: false, failed: false });
    expect(await sentWith('drained too late')).toBe(0);
    expect(await sentWith('drained in a minute')).toBe(0);
  });
});
