import { Client } from 'pg';
import { archivedPostgres, type ArchivedPostgres } from '@confab/devkit';

/**
 * Point-in-time recovery with pgBackRest (docs/architecture.md, "Point-in-time recovery"): WAL is archived
 * continuously beside a full backup, and the whole server — every service's database — is restored to a chosen
 * moment: what committed before it is there, in every database, and nothing that committed after it. (The three
 * hosts of `npm run ha` archive their Patroni cluster the same way; this test needs no namespaces.)
 */
describe('point-in-time recovery (pgBackRest)', () => {
  let pg: ArchivedPostgres;
  const databases = ['confab_pitr_settings', 'confab_pitr_messaging'];

  beforeAll(async () => {
    pg = await archivedPostgres();
    const admin = new Client({ connectionString: `${pg.url}/postgres` });
    await admin.connect();
    for (const db of databases) await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    for (const db of databases) await query(db, 'CREATE TABLE messages (id serial PRIMARY KEY, content text NOT NULL)');
  }, 120_000);

  afterAll(async () => {
    await pg?.destroy();
  });

  async function query(db: string, text: string, values: unknown[] = []): Promise<string[]> {
    const client = new Client({ connectionString: `${pg.url}/${db}` });
    await client.connect();
    try {
      return (await client.query<{ content: string }>(text, values)).rows.map((r) => r.content);
    } finally {
      await client.end();
    }
  }

  const write = (tag: string) =>
    Promise.all(
      databases.map(async (db) => {
        for (let i = 0; i < 5; i++) await query(db, 'INSERT INTO messages (content) VALUES ($1)', [`${tag} ${i}`]);
      }),
    );

  it('restores every database to the chosen moment: what committed before it, nothing after', async () => {
    await write('before');
    // The chosen moment lies strictly between the two writes: the next millisecond after the first committed (the
    // server's timestamps have microseconds, the target milliseconds), and the second starts once it has passed.
    const target = new Date(Date.now() + 1);
    while (Date.now() <= target.getTime()) await new Promise((r) => setImmediate(r));
    await write('after');
    // The WAL of the later writes is archived too, so recovery has to stop at the target, not at the archive's end.
    await pg.archiveNow();
    expect(await query(databases[0]!, 'SELECT content FROM messages ORDER BY id')).toHaveLength(10);

    await pg.restoreTo(target);
    const expected = Array.from({ length: 5 }, (_, i) => `before ${i}`);
    for (const db of databases)
      expect({ db, rows: await query(db, 'SELECT content FROM messages ORDER BY id') }).toEqual({ db, rows: expected });
    // Writable again after the recovery (promoted at the target).
    await query(databases[1]!, 'INSERT INTO messages (content) VALUES ($1)', ['after the restore']);
    expect(await query(databases[1]!, 'SELECT content FROM messages ORDER BY id')).toHaveLength(6);
  }, 180_000);
});
