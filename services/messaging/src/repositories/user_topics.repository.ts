import type { UserTopicStore, UserTopicUnit } from '../domain/message-store.js';
import type { TopicPolicyChange } from '../domain/types.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

export type { TopicPolicyChange };

/** Users' visibility policies for topics (no row means "none"). */
export class UserTopicsRepository implements UserTopicStore {
  constructor(private readonly store: Store) {}

  /** Applies the changes (policy 0 deletes the row) in two statements, whatever their number. */
  /** This part of a unit of work (a PlainStore part, repositories/messaging-database.ts), joined to `executor`. */
  on(executor: SqlExecutor): UserTopicUnit {
    return { setPolicies: (changes, at) => this.setPolicies(executor, changes, at) };
  }

  setPolicies(executor: SqlExecutor, changes: readonly TopicPolicyChange[], at: Date): Promise<void> {
    return writeTopicPolicies(executor, changes, at);
  }

  async policy(userId: number, channelId: number, topicKey: string): Promise<number> {
    const row = await this.store.db.userTopic.findUnique({
      where: { userId_channelId_topicKey: { userId, channelId, topicKey } },
      select: { visibilityPolicy: true },
    });
    return row?.visibilityPolicy ?? 0;
  }

  async withPolicy(channelId: number, topicKey: string): Promise<{ userId: number; topicName: string }[]> {
    return this.store.db.userTopic.findMany({
      where: { channelId, topicKey },
      select: { userId: true, topicName: true },
      orderBy: { userId: 'asc' },
    });
  }
}

/** Applies topic policy changes (policy 0 deletes the row) in two statements, whatever their number. */
export async function writeTopicPolicies(
  executor: SqlExecutor,
  changes: readonly TopicPolicyChange[],
  at: Date,
): Promise<void> {
  const set = changes.filter((c) => c.policy !== 0);
  const cleared = changes.filter((c) => c.policy === 0);
  if (set.length > 0) {
    await executor.query(
      `INSERT INTO user_topics (user_id, channel_id, topic_name, topic_key, visibility_policy, last_updated)
       SELECT * , $6::timestamptz FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::int[])
       ON CONFLICT (user_id, channel_id, topic_key)
       DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, topic_name = EXCLUDED.topic_name, last_updated = EXCLUDED.last_updated`,
      [
        set.map((c) => c.userId),
        set.map((c) => c.channelId),
        set.map((c) => c.topicName),
        set.map((c) => c.topicKey),
        set.map((c) => c.policy),
        at,
      ],
    );
  }
  for (const c of cleared) {
    await executor.query('DELETE FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND topic_key = $3', [
      c.userId,
      c.channelId,
      c.topicKey,
    ]);
  }
}
