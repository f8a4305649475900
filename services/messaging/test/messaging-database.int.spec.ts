import { contracts, outboxRecord } from '@confab/events';
import { migratedDomain } from './fixtures';

/**
 * Messaging's unit of work (repositories/messaging-database.ts): `db.write(realmId, store => …)`, the same on the
 * plain pool (`db.writeSql`) and across organizations (`db.writeAcross`).
 */
describe('MessagingDatabase.write', () => {
  let built: Awaited<ReturnType<typeof migratedDomain>>;

  beforeAll(async () => {
    built = await migratedDomain('unitofwork', 4);
  });

  afterAll(() => built.drop());

  const draft = (userId: number) => ({
    userId,
    type: '' as const,
    to: [],
    topic: '',
    content: 'unsent',
    lastEditTime: new Date(),
  });
  const outboxRows = async () =>
    (await built.store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox', []))[0]!.n;

  it('commits the change with its events in the outbox', async () => {
    const before = await outboxRows();
    const ids = await built.domain.db.write(1, async ({ drafts }) => {
      const created = await drafts.createMany([draft(7)]);
      const event = outboxRecord(contracts.draftRemoved, { user_id: 7, draft_id: created[0]!.id }, { realmId: 1 });
      return { result: created.map((d) => d.id), events: [event] };
    });
    expect((await built.domain.drafts.list(7)).map((d) => d.id)).toEqual(ids);
    expect(await outboxRows()).toBe(before + 1);
  });

  it("refuses an event of another organization than the write's, and writes nothing", async () => {
    const before = await outboxRows();
    await expect(
      built.domain.db.write(1, async ({ drafts }) => {
        await drafts.createMany([draft(8)]);
        return {
          result: undefined,
          events: [outboxRecord(contracts.draftRemoved, { user_id: 8, draft_id: 1 }, { realmId: 2 })],
        };
      }),
    ).rejects.toThrow('a write to organization 1 produced an event of 2');
    expect(await built.domain.drafts.list(8)).toEqual([]);
    expect(await outboxRows()).toBe(before);
  });

  it('writes on the plain pool with its events, and refuses an event of another organization there too', async () => {
    const before = await outboxRows();
    const event = (realmId: number) => outboxRecord(contracts.draftRemoved, { user_id: 9, draft_id: 1 }, { realmId });
    const seen = await built.domain.db.writeSql(1, async ({ sql }) => {
      const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox', []);
      return { result: row!.n, events: [event(1)] };
    });
    expect(seen).toBe(before);
    expect(await outboxRows()).toBe(before + 1);
    await expect(
      built.domain.db.writeSql(1, async () => ({ result: undefined, events: [event(1), event(2)] })),
    ).rejects.toThrow('a write to organization 1 produced an event of 2');
    expect(await outboxRows()).toBe(before + 1);
  });

  it("writes across organizations only when asked to (the housekeeping's unit of work)", async () => {
    const before = await outboxRows();
    await built.domain.db.writeAcross(async ({ drafts }) => {
      const [created] = await drafts.createMany([draft(10)]);
      return {
        result: undefined,
        events: [1, 2].map((realmId) =>
          outboxRecord(contracts.draftRemoved, { user_id: 10, draft_id: created!.id }, { realmId }),
        ),
      };
    });
    expect(await built.domain.drafts.list(10)).toHaveLength(1);
    expect(await outboxRows()).toBe(before + 2);
  });
});
