import { serviceDatabase } from '@confab/devkit';
import pg from 'pg';
import { postgresUrl } from './fixtures';

jest.setTimeout(60_000);

/**
 * Each channel's subscriber count is kept by PostgreSQL's triggers (migration channel_subscriber_counts): after any
 * mix of subscription and user writes — one row or many per statement, upserts, deletions, and a deactivation racing
 * a subscription of the same user — it equals the count it stands for (active subscriptions of active users).
 */
describe("channels' subscriber counts kept by the database", () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: pg.Client;
  let b: pg.Client;

  beforeAll(async () => {
    database = await serviceDatabase('messaging', 'counts', postgresUrl);
    [a, b] = [new pg.Client({ connectionString: database.url }), new pg.Client({ connectionString: database.url })];
    await Promise.all([a.connect(), b.connect()]);
  });

  afterAll(async () => {
    await Promise.all([a.end(), b.end()]);
    await database.drop();
  });

  const addUsers = (client: pg.Client, ids: number[], active = true) =>
    client.query(
      `INSERT INTO users (id, realm_id, email, email_key, delivery_email, full_name, role, is_bot, is_active, date_joined)
       SELECT id, 1, 'u' || id || '@x.test', 'u' || id || '@x.test', 'u' || id || '@x.test', 'U' || id, 400, false, $2,
              now() FROM unnest($1::int[]) AS id
       ON CONFLICT (id) DO UPDATE SET is_active = excluded.is_active`,
      [ids, active],
    );
  const subscribe = (client: pg.Client, userIds: number[], channelId: number) =>
    client.query(
      `INSERT INTO subscriptions (user_id, channel_id, color) SELECT id, $2, '#c2c2c2' FROM unnest($1::int[]) AS id
       ON CONFLICT (user_id, channel_id) DO UPDATE SET active = true`,
      [userIds, channelId],
    );
  /** Every channel with a count or a subscription: [kept, counted]. */
  const disagreements = async () =>
    (
      await a.query<{ channel_id: number; kept: number; truth: number }>(
        `SELECT ch.channel_id, coalesce(c.n, 0) AS kept,
                (SELECT count(*)::int FROM subscriptions s JOIN users u ON u.id = s.user_id
                  WHERE s.channel_id = ch.channel_id AND s.active AND u.is_active) AS truth
           FROM (SELECT channel_id FROM subscriptions UNION SELECT channel_id FROM channel_subscriber_counts) ch
           LEFT JOIN channel_subscriber_counts c ON c.channel_id = ch.channel_id`,
      )
    ).rows.filter((r) => r.kept !== r.truth);
  const countOf = async (channelId: number) =>
    (await a.query<{ n: number }>('SELECT n FROM channel_subscriber_counts WHERE channel_id = $1', [channelId])).rows[0]
      ?.n ?? 0;

  it('agree with the subscriptions after a long random mix of writes', async () => {
    let seed = 47;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    await addUsers(
      a,
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    await subscribe(
      a,
      Array.from({ length: 30 }, (_, i) => i + 1),
      1,
    ); // everyone in one statement
    expect(await countOf(1)).toBe(30);
    const user = () => random(34) + 1; // a few ids are not users yet
    const channel = () => random(6) + 1;
    for (let step = 0; step < 400; step++) {
      const kind = random(9);
      if (kind === 0) await subscribe(a, [user()], channel());
      else if (kind === 1)
        await subscribe(
          a,
          [user(), user(), user()].filter((v, i, l) => l.indexOf(v) === i),
          channel(),
        );
      else if (kind === 2)
        await a.query('UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = $2', [
          user(),
          channel(),
        ]);
      else if (kind === 3)
        await a.query('DELETE FROM subscriptions WHERE user_id = $1 AND channel_id = $2', [user(), channel()]);
      else if (kind === 4) await a.query('UPDATE users SET is_active = NOT is_active WHERE id = $1', [user()]);
      else if (kind === 5)
        await addUsers(
          a,
          [user(), user()].filter((v, i, l) => l.indexOf(v) === i),
          random(2) === 0,
        );
      else if (kind === 6) await a.query('DELETE FROM users WHERE id = $1', [user()]);
      else if (kind === 7) await a.query('UPDATE users SET full_name = full_name || $2 WHERE id = $1', [user(), '.']);
      else await a.query('UPDATE subscriptions SET is_muted = NOT is_muted WHERE channel_id = $1', [channel()]);
    }
    expect(await disagreements()).toEqual([]);
  });

  /** Resolves once `client`'s backend waits for a lock (it is blocked by the other transaction); fails after 10 s. */
  const untilWaiting = async (client: pg.Client) => {
    const pid = (client as unknown as { processID: number }).processID;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('the second transaction never waited for the first one');
      const { rows } = await a.query<{ waiting: boolean }>(
        `SELECT coalesce(wait_event_type = 'Lock', false) AS waiting FROM pg_stat_activity WHERE pid = $1`,
        [pid],
      );
      if (rows[0]?.waiting) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it.each([
    ['the deactivation commits first', 'deactivate-first'],
    ['the subscription commits first', 'subscribe-first'],
  ])('count a deactivation racing a subscription of the same user right when %s', async (_name, order) => {
    const [u, c] = order === 'deactivate-first' ? [101, 11] : [102, 12];
    await addUsers(a, [u]);
    await subscribe(a, [u], 10); // another channel of theirs, which the deactivation also changes
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      const [first, second] = order === 'deactivate-first' ? [b, other] : [other, b];
      await first.query('BEGIN');
      if (order === 'deactivate-first') await first.query('UPDATE users SET is_active = false WHERE id = $1', [u]);
      else await subscribe(first, [u], c);
      await second.query('BEGIN');
      const blocked =
        order === 'deactivate-first'
          ? subscribe(second, [u], c)
          : second.query('UPDATE users SET is_active = false WHERE id = $1', [u]);
      await untilWaiting(second);
      await first.query('COMMIT');
      await blocked;
      await second.query('COMMIT');
    } finally {
      await other.end();
    }
    // The user is deactivated and subscribed: counted nowhere.
    expect(await countOf(c)).toBe(0);
    expect(await disagreements()).toEqual([]);
  });
});
