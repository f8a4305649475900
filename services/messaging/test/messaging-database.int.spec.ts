import { contracts, outboxRecord } from '@confab/events';
import { migratedDomain } from './fixtures';

/** Messaging's unit of work (repositories/messaging-database.ts): `db.write(realmId, store => …)`. */
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
});
