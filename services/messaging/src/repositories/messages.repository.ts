import { FLAG } from '@confab/zulip';
import type { SendFacts, StoredMessage } from '../domain/types.js';
import type { MessageQuery } from '../domain/narrow.js';
import { NarrowReader, type NarrowRange } from './narrow-reader.js';
import { GroupCommit, type SentRows } from './group-commit.js';
import { sendFactsQuery, type SendWrite } from './send-sql.js';
import type { SqlExecutor } from './sql.js';
import { RECIPIENT_DIRECT } from '../domain/types.js';
import type { Tx } from './prisma.js';
import { validId } from './prisma.js';
import type { Store } from './store.js';
import type { FlagUnit, MessageStore, MessageUnit } from '../domain/message-store.js';
import type { OutboxRecord } from '@confab/events';
import { forgetSentLocalIds, repeatedSendsRefused, sentWith } from './sent-local-ids.js';
import { MESSAGE_COLUMNS, toMessage, type MessageRow } from './message-row.js';
import { UserStateReader } from './user-state-reader.js';

export type { SentRows } from './group-commit.js';

/** Messages and their per-user rows. Sending is the hot path: one statement writes the message and every row. */
export class MessagesRepository implements MessageStore {
  private readonly dmRecipients = new Map<string, number>();

  /** Concurrent sends share statements (group commit, see group-commit.ts). */
  readonly group: GroupCommit;

  constructor(
    private readonly store: Store,
    groupCommit: { lanes: number; maxBatch: number },
  ) {
    // The shared statements on the connections that plan them once (SqlPool's `planOnce`).
    this.group = new GroupCommit(store.sql, groupCommit, store.sql.planOnce);
    this.narrows = new NarrowReader(store);
    this.userState = new UserStateReader(store);
  }

  private readonly narrows: NarrowReader;
  private readonly userState: UserStateReader;

  private get db() {
    return this.store.db;
  }

  async addMissingRows(userId: number): Promise<boolean> {
    const rows = await this.store.sql.query<{ cleared: boolean }>(
      `WITH cleared AS (UPDATE users SET long_term_idle = false WHERE id = $1 AND long_term_idle RETURNING id),
            added AS (
              INSERT INTO user_messages (user_id, message_id, flags)
              SELECT $1, m.id, ${FLAG.read} FROM subscriptions s JOIN messages m ON m.channel_id = s.channel_id
               WHERE s.user_id = $1 AND s.active AND EXISTS (SELECT 1 FROM cleared)
              ON CONFLICT (user_id, message_id) DO NOTHING)
       SELECT EXISTS (SELECT 1 FROM cleared) AS cleared`,
      [userId],
      { prepare: false },
    );
    return rows[0]?.cleared === true;
  }

  /** The recipient of a direct conversation, created on first use (the mapping never changes, so it is cached). */
  async directRecipient(realmId: number, userIds: readonly number[]): Promise<number> {
    const key = `${realmId}:${userIds.join(',')}`;
    const cached = this.dmRecipients.get(key);
    if (cached !== undefined) return cached;
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO recipients (realm_id, type, dm_key) VALUES ($1, $2, $3)
       ON CONFLICT (realm_id, dm_key) DO UPDATE SET dm_key = EXCLUDED.dm_key RETURNING id`,
      realmId,
      RECIPIENT_DIRECT,
      userIds.join(','),
    );
    const id = rows[0]!.id;
    if (this.dmRecipients.size > 100_000) this.dmRecipients.clear();
    this.dmRecipients.set(key, id);
    return id;
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): MessageUnit {
    return {
      lockMessages: (messageIds) => this.lockMessages(tx, messageIds),
      deleteMessages: (messageIds) => this.deleteMessages(tx, messageIds),
      markRead: (userId, scope) => this.markRead(tx, userId, scope),
    };
  }

  /** The flags part of a unit of work (a PlainStore part, repositories/messaging-database.ts), joined to `executor`. */
  flagsOn(executor: SqlExecutor): FlagUnit {
    return {
      createHistoricalRows: (userId, messageIds) => this.createHistoricalRows(executor, userId, messageIds),
      setFlag: (userId, messageIds, bit, on) => this.setFlag(executor, userId, messageIds, bit, on),
    };
  }

  /**
   * Writes a message with its rows and events in one statement (see send-sql.ts), sharing it with concurrent sends
   * (group-commit.ts); with `alongside`, in one plain-SQL transaction with the writes it makes.
   */
  async send(
    write: SendWrite,
    alongside?: (executor: SqlExecutor, messageId: number) => Promise<OutboxRecord[]>,
  ): Promise<SentRows> {
    const sent = alongside
      ? await this.store.sqlTransaction(async (executor) => {
          const rows = await this.sendIn(executor, write);
          return { result: rows, events: await alongside(executor, rows.messageId) };
        })
      : await repeatedSendsRefused(write, this.group.send(write));
    // The statement wrote the message's own events: the relay is woken even when `alongside` had none.
    this.store.committed();
    return sent;
  }

  /** The send statement in the caller's transaction. */
  sendIn(executor: SqlExecutor, write: SendWrite): Promise<SentRows> {
    return repeatedSendsRefused(write, this.group.alone(write, executor));
  }

  sentWith(ids: { senderId: number; queueId: string; localId: string }): Promise<number | null> {
    return sentWith(this.store.sql, ids);
  }

  forgetSentLocalIds(before: Date): Promise<number> {
    return forgetSentLocalIds(this.store.sql, before);
  }

  /** Several messages in the caller's transaction, in one statement where they may share it. */
  sendMany(writes: readonly SendWrite[], executor: SqlExecutor): Promise<SentRows[]> {
    return this.group.inTransaction(writes, executor);
  }

  async sendFacts(input: Parameters<typeof sendFactsQuery>[0]): Promise<SendFacts> {
    const { text, values } = sendFactsQuery(input);
    const [row] = await this.store.sql.query<{
      sub_active: boolean | null;
      sub_muted: boolean | null;
      sender_policy: number | null;
      topic_had_messages: boolean;
      mentioned_policies: [number, number][] | null;
      mentioned_subscribed: number[] | null;
    }>(text, values);
    return {
      subscribed: row?.sub_active === true,
      senderMuted: row?.sub_active ? (row.sub_muted ?? null) : null,
      senderPolicy: row?.sender_policy ?? 0,
      topicHadMessages: row?.topic_had_messages ?? false,
      mentionedPolicies: new Map(row?.mentioned_policies ?? []),
      mentionedSubscribed: new Set(row?.mentioned_subscribed ?? []),
    };
  }

  async messageById(id: number, tx?: Tx): Promise<StoredMessage | null> {
    if (!validId(id)) return null;
    const rows = await this.store
      .reader(tx)
      .query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.id = $1`,
        [id],
      );
    return rows[0] ? toMessage(rows[0]) : null;
  }

  /** The user's flags on a message, or null without a row. */
  async userMessageFlags(userId: number, messageId: number, tx?: Tx): Promise<number | null> {
    if (!validId(messageId)) return null;
    const [row] = await this.store
      .reader(tx)
      .query<{ flags: number }>('SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2', [
        userId,
        messageId,
      ]);
    return row ? row.flags : null;
  }

  async hasMessages(recipientId: number): Promise<boolean> {
    const rows = await this.db.$queryRawUnsafe<unknown[]>(
      'SELECT 1 FROM messages WHERE recipient_id = $1 LIMIT 1',
      recipientId,
    );
    return rows.length > 0;
  }

  /** Senders of the topic's messages and users who reacted to them (Zulip's participants_for_topic). */
  async topicParticipants(recipientId: number, topicKey: string): Promise<number[]> {
    const rows = await this.db.$queryRawUnsafe<{ user_id: number }[]>(
      `SELECT sender_id AS user_id FROM messages WHERE recipient_id = $1 AND topic_key = $2
       UNION SELECT rx.user_id FROM reactions rx JOIN messages m ON m.id = rx.message_id
        WHERE m.recipient_id = $1 AND m.topic_key = $2`,
      recipientId,
      topicKey,
    );
    return rows.map((r) => r.user_id);
  }

  /** Zulip's limit_query over a narrow (repositories/narrow-reader.ts). */
  fetchRange(query: MessageQuery, range: NarrowRange): Promise<{ id: number; flags: number }[]> {
    return this.narrows.fetchRange(query, range);
  }

  /** Which of these messages match the narrow, with the user's flags. */
  fetchIds(query: MessageQuery, ids: readonly number[]): Promise<{ id: number; flags: number }[]> {
    return this.narrows.fetchIds(query, ids);
  }

  /** The oldest unread message matching the narrow. */
  firstUnread(query: MessageQuery): Promise<number | null> {
    return this.narrows.firstUnread(query);
  }

  async messagesByIds(ids: readonly number[], tx?: Tx): Promise<StoredMessage[]> {
    const wanted = [...new Set(ids.filter(validId))];
    if (wanted.length === 0) return [];
    const rows = await this.store
      .reader(tx)
      .query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.id = ANY($1::int[]) ORDER BY m.id`,
        [wanted],
      );
    return rows.map(toMessage);
  }

  /** The user's flags on each of the messages they have a row for. */
  async flagsFor(userId: number, messageIds: readonly number[], tx?: Tx): Promise<Map<number, number>> {
    const wanted = [...new Set(messageIds.filter(validId))];
    if (wanted.length === 0) return new Map();
    const rows = await this.store
      .reader(tx)
      .query<{ message_id: number; flags: number }>(
        'SELECT message_id, flags FROM user_messages WHERE user_id = $1 AND message_id = ANY($2::int[])',
        [userId, wanted],
      );
    return new Map(rows.map((r) => [r.message_id, r.flags]));
  }

  /** Users with a row for the message. */
  async holders(messageIds: number | readonly number[], tx?: Tx): Promise<number[]> {
    const ids = (typeof messageIds === 'number' ? [messageIds] : messageIds).filter(validId);
    if (ids.length === 0) return [];
    const rows = await this.store
      .reader(tx)
      .query<{ user_id: number }>('SELECT DISTINCT user_id FROM user_messages WHERE message_id = ANY($1::int[])', [
        ids,
      ]);
    return rows.map((r) => r.user_id);
  }

  /** Rows for messages the user never received but acts on (Zulip's historical UserMessage rows). */
  async createHistoricalRows(executor: SqlExecutor, userId: number, messageIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0) return;
    await executor.query(
      `INSERT INTO user_messages (user_id, message_id, flags) SELECT $1, m, $3 FROM unnest($2::int[]) AS m
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [userId, [...messageIds], FLAG.read | FLAG.historical],
    );
  }

  async setFlag(
    executor: SqlExecutor,
    userId: number,
    messageIds: readonly number[],
    bit: number,
    on: boolean,
  ): Promise<number> {
    if (messageIds.length === 0) return 0;
    const rows = await executor.query(
      on
        ? 'UPDATE user_messages SET flags = flags | $3 WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) = 0 RETURNING message_id'
        : 'UPDATE user_messages SET flags = flags & ~$3 WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) <> 0 RETURNING message_id',
      [userId, [...messageIds], bit],
    );
    return rows.length;
  }

  /** Locks the message row for a change; false when it is gone. */
  async lockMessages(tx: Tx, messageIds: readonly number[]): Promise<number[]> {
    const rows = await this.store
      .reader(tx)
      .query<{ id: number }>('SELECT id FROM messages WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [
        messageIds.filter(validId),
      ]);
    return rows.map((r) => r.id);
  }

  async deleteMessages(tx: Tx, messageIds: readonly number[]): Promise<void> {
    await tx.$executeRawUnsafe('DELETE FROM user_messages WHERE message_id = ANY($1::int[])', [...messageIds]);
    await tx.$executeRawUnsafe('DELETE FROM submessages WHERE message_id = ANY($1::int[])', [...messageIds]);
    await tx.$executeRawUnsafe('DELETE FROM messages WHERE id = ANY($1::int[])', [...messageIds]);
  }

  /** The user's topic policies, as Zulip's register response lists them. */
  userTopicsOf(userId: number) {
    return this.userState.userTopicsOf(userId);
  }

  /** The highest message id the user received, -1 when none. */
  maxMessageId(userId: number): Promise<number> {
    return this.userState.maxMessageId(userId);
  }

  /** Ids of the user's messages with this flag bit set. */
  flaggedIds(userId: number, bit: number): Promise<number[]> {
    return this.userState.flaggedIds(userId, bit);
  }

  /** The user's unread messages, newest first, with what grouping them needs. */
  unreadRows(userId: number, limit: number) {
    return this.userState.unreadRows(userId, limit);
  }

  /** The user's direct conversations, most recent first. */
  recentDirectConversations(userId: number, limit: number): Promise<{ maxMessageId: number; userIds: number[] }[]> {
    return this.userState.recentDirectConversations(userId, limit);
  }

  /** Marks the user's unread messages read (all, a channel's, or a topic's); returns their ids. */
  async markRead(tx: Tx, userId: number, scope: { recipientId?: number; topicKey?: string }): Promise<number[]> {
    const values: unknown[] = [userId];
    const where: string[] = [];
    if (scope.recipientId !== undefined) {
      values.push(scope.recipientId);
      where.push(`m.recipient_id = $${values.length}`);
    }
    if (scope.topicKey !== undefined) {
      values.push(scope.topicKey);
      where.push(`m.topic_key = $${values.length}`);
    }
    const rows = await tx.$queryRawUnsafe<{ message_id: number }[]>(
      `UPDATE user_messages um SET flags = um.flags | ${FLAG.read} FROM messages m
        WHERE um.user_id = $1 AND m.id = um.message_id AND (um.flags & ${FLAG.read}) = 0 ${where.map((w) => `AND ${w}`).join(' ')}
       RETURNING um.message_id`,
      ...values,
    );
    return rows.map((r) => r.message_id).sort((a, b) => a - b);
  }

  /** Whether the user received any message in the topic. */
  async receivedInTopic(userId: number, recipientId: number, topicKey: string): Promise<boolean> {
    const rows = await this.store.sql.query(
      `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
        WHERE um.user_id = $1 AND m.recipient_id = $2 AND m.topic_key = $3 LIMIT 1`,
      [userId, recipientId, topicKey],
    );
    return rows.length > 0;
  }

  /**
   * Topics of a channel with their latest message id, newest first (Zulip's get_topic_history_for_stream); the name
   * is the latest message's spelling. With `userId`, only topics of messages the user received count.
   */
  async topicsOf(recipientId: number, userId: number | null): Promise<{ name: string; maxId: number }[]> {
    const rows = await this.store.sql.query<{ topic: string; max_id: number }>(
      userId === null
        ? `SELECT DISTINCT ON (topic_key) topic, id AS max_id FROM messages WHERE recipient_id = $1 ORDER BY topic_key, id DESC`
        : `SELECT DISTINCT ON (m.topic_key) m.topic, m.id AS max_id FROM messages m
             JOIN user_messages um ON um.message_id = m.id AND um.user_id = $2
            WHERE m.recipient_id = $1 ORDER BY m.topic_key, m.id DESC`,
      userId === null ? [recipientId] : [recipientId, userId],
    );
    return rows.map((r) => ({ name: r.topic, maxId: r.max_id })).sort((a, b) => b.maxId - a.maxId);
  }
}
