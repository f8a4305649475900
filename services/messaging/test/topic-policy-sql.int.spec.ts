import { databaseUrl } from '@confab/devkit';
import pg from 'pg';
import { sendPolicy, type SendPolicyFacts } from '../src/domain/topic-policy';
import { sendPolicySql } from '../src/repositories/send-sql';
import { postgresUrl } from './fixtures';

/**
 * The sender's automatic topic policy has one source (SEND_POLICY_RULE): the send statement's SQL is written from
 * it. Both are run here over every case — each visibility policy before the send, each value of both automatic
 * policies (Zulip's 1–4), muted or not, the topic new or not — and must agree.
 */
describe("the send statement's topic-policy SQL agrees with the TypeScript rule", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: databaseUrl(postgresUrl, 'postgres') });
    await client.connect();
  });
  afterAll(() => client.end());

  it('gives the same policy in every one of the 256 cases', async () => {
    const cases: SendPolicyFacts[] = [];
    for (const current of [0, 1, 2, 3])
      for (const follow of [1, 2, 3, 4])
        for (const unmute of [1, 2, 3, 4])
          for (const muted of [false, true])
            for (const had of [false, true]) cases.push({ current, follow, unmute, muted, had });
    const values = cases
      .map((c, i) => `(${i}, ${c.current}, ${c.follow}, ${c.unmute}, ${c.muted}, ${c.had})`)
      .join(', ');
    const sql = sendPolicySql({ current: 'cur', follow: 'follow', unmute: 'unmute', muted: 'muted', had: 'had' });
    const { rows } = await client.query<{ i: number; policy: number | null }>(
      `SELECT i, ${sql} AS policy FROM (VALUES ${values}) AS f(i, cur, follow, unmute, muted, had) ORDER BY i`,
    );
    expect(rows).toHaveLength(256);
    const disagreements = rows
      .filter((r) => r.policy !== sendPolicy(cases[r.i]!))
      .map((r) => ({ ...cases[r.i], sql: r.policy, typescript: sendPolicy(cases[r.i]!) }));
    expect(disagreements).toEqual([]);
    // Every outcome occurs: the cases reach every row that gives a policy.
    expect(new Set(rows.map((r) => r.policy))).toEqual(new Set([null, 2, 3]));
  });
});
