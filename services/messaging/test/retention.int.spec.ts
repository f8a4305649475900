import { contracts, parseEnvelope } from '@confab/events';
import { archiveMessages, restoreArchived } from '../src/domain/retention';
import { messagingWorld, REALM, sendToChannel, type TestDomain } from './fixtures';

const DAY_MS = 86_400_000;

describe('message retention against PostgreSQL (batches, uploads, purge)', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let ids: number[];
  let withUpload: number;
  const pathId = `${REALM}/re/proof.txt`;
  const start = Date.now();

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'retention',
      pool: 8,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
      ],
      realm: { message_retention_days: 10 },
    });
    ({ domain, drop: close } = world);
    const hamlet = world.actors.hamlet!;
    await domain.files.put(pathId, Buffer.from('evidence'));
    await domain.attachments.create({
      realmId: REALM,
      ownerId: 1,
      fileName: 'proof.txt',
      pathId,
      size: 8,
      contentType: 'text/plain',
    });
    withUpload = await sendToChannel(domain, hamlet, 'files', `[proof](/user_uploads/${pathId})`);
    ids = [withUpload];
    for (let i = 0; i < 249; i += 1) ids.push(await sendToChannel(domain, hamlet, `topic ${i % 3}`, `message ${i}`));
  });

  afterAll(async () => {
    await close();
  });

  const deletedIds = async () => {
    const rows = await domain.store.db.outbox.findMany({ where: { routingKey: 'message.deleted' } });
    return rows.flatMap((r) => parseEnvelope(contracts.messageDeleted, r.envelope).payload.message_ids);
  };

  it('archives in batches of 100, announcing every message, and keeps the upload file', async () => {
    expect(await domain.store.db.attachmentMessage.count({ where: { messageId: withUpload } })).toBe(1);
    const report = await archiveMessages(domain, new Date(start + 11 * DAY_MS), { vacuumDays: 30 });
    expect(report).toMatchObject({ messages: 250, batches: 3, purgedBatches: 0 });
    expect(await domain.store.db.message.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await domain.store.db.archivedMessage.count({ where: { id: { in: ids } } })).toBe(250);
    expect((await deletedIds()).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(await domain.store.db.attachment.count({ where: { pathId } })).toBe(0);
    expect(await domain.files.get(pathId)).not.toBeNull();
  });

  it('restores every batch with the upload, then purges the re-archived batches and the file after the delay', async () => {
    expect(await restoreArchived(domain, REALM)).toEqual({ batches: 3, messages: 250 });
    expect(await domain.store.db.message.count({ where: { id: { in: ids } } })).toBe(250);
    expect(await domain.store.db.attachmentMessage.count({ where: { messageId: withUpload } })).toBe(1);
    expect(await domain.store.db.userMessage.count({ where: { messageId: { in: ids } } })).toBe(500);

    await archiveMessages(domain, new Date(start + 11 * DAY_MS), { vacuumDays: 30 });
    // 29 days after the archive: still restorable.
    expect((await archiveMessages(domain, new Date(start + 40 * DAY_MS), { vacuumDays: 30 })).purgedBatches).toBe(0);
    const purged = await archiveMessages(domain, new Date(start + 42 * DAY_MS), { vacuumDays: 30 });
    expect(purged).toMatchObject({ messages: 0, purgedFiles: 1 });
    expect(purged.purgedBatches).toBeGreaterThanOrEqual(3);
    expect(await domain.store.db.archivedMessage.count()).toBe(0);
    expect(await domain.store.db.archivedUserMessage.count()).toBe(0);
    expect(await domain.files.get(pathId)).toBeNull();
    expect(await restoreArchived(domain, REALM)).toEqual({ batches: 0, messages: 0 });
  });
});
