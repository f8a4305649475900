import type { StoredMessage } from '../domain/types.js';
import { RECIPIENT_DIRECT } from '../domain/types.js';
import type { Tx } from './prisma.js';
import { validId } from './prisma.js';
import type { Store } from './store.js';

export interface NewMessage {
  realmId: number;
  senderId: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  topicKey: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  sendingClient: string;
  isMeMessage: boolean;
  hasAttachment: boolean;
  hasImage: boolean;
  hasLink: boolean;
}

/** Who receives a message and how their flags are computed (all in the INSERT, no query per recipient). */
export interface Delivery {
  /** Channel messages: the channel whose active subscribers receive it. */
  channelId: number | null;
  /** Receivers besides the channel's subscribers (direct-message participants, mentioned bots). */
  extraUserIds: number[];
  baseFlags: number;
  /** Users who get the flag bit named next to them. */
  flagged: { userIds: number[]; bit: number }[];
}

/** What the sender's automatic topic-visibility decision needs, read in the same statement as the insert. */
export interface TopicFacts {
  senderPolicy: number;
  senderMuted: boolean | null;
  topicHadMessages: boolean;
  /** Current policies of the mentioned users for this topic. */
  mentionedPolicies: Map<number, number>;
}

export interface SentRows {
  messageId: number;
  userIds: number[];
  flags: number[];
  topic: TopicFacts | null;
}

const MESSAGE_COLUMNS = `m.id, m.realm_id, m.sender_id, m.recipient_id, m.channel_id, m.topic, m.content, m.rendered_content,
  m.date_sent, m.sending_client, m.is_me_message, m.has_attachment, m.has_image, m.has_link, m.last_edit_time, r.dm_key`;

export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: Date;
  sending_client: string;
  is_me_message: boolean;
  has_attachment: boolean;
  has_image: boolean;
  has_link: boolean;
  last_edit_time: Date | null;
  dm_key: string | null;
}

export function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    realmId: row.realm_id,
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    channelId: row.channel_id,
    topic: row.topic,
    content: row.content,
    renderedContent: row.rendered_content,
    dateSent: row.date_sent,
    sendingClient: row.sending_client,
    isMeMessage: row.is_me_message,
    hasAttachment: row.has_attachment,
    hasImage: row.has_image,
    hasLink: row.has_link,
    lastEditTime: row.last_edit_time,
    dmUserIds: row.dm_key ? row.dm_key.split(',').map(Number) : null,
  };
}

/** Messages and their per-user rows. Sending is the hot path: one statement writes the message and every row. */
export class MessagesRepository {
  private readonly dmRecipients = new Map<string, number>();

  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
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

  /**
   * Inserts the message and every receiver's row in one statement, returning the rows written and, for channel
   * messages, the facts the sender's automatic topic policy depends on (read before the insert took effect).
   */
  async insertMessage(
    tx: Tx,
    message: NewMessage,
    delivery: Delivery,
    topicFacts: { mentionedUserIds: number[]; historyPublic: boolean } | null,
  ): Promise<SentRows> {
    const values: unknown[] = [
      message.realmId,
      message.senderId,
      message.recipientId,
      message.channelId,
      message.topic,
      message.topicKey,
      message.content,
      message.renderedContent,
      message.dateSent,
      message.sendingClient,
      message.isMeMessage,
      message.hasAttachment,
      message.hasImage,
      message.hasLink,
      delivery.extraUserIds,
      delivery.baseFlags,
    ];
    const flagTerms = delivery.flagged.map((f) => {
      values.push(f.userIds, f.bit);
      return ` | CASE WHEN r.user_id = ANY($${values.length - 1}::int[]) THEN $${values.length}::int ELSE 0 END`;
    });
    const receivers =
      delivery.channelId === null
        ? 'SELECT DISTINCT unnest($15::int[]) AS user_id'
        : `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
            WHERE s.channel_id = $4 AND s.active AND u.is_active
           UNION SELECT unnest($15::int[])`;
    let facts = '';
    if (topicFacts) {
      values.push(topicFacts.mentionedUserIds, topicFacts.historyPublic);
      const mentioned = `$${values.length - 1}::int[]`;
      const history = `$${values.length}::boolean`;
      facts = `,
        (SELECT visibility_policy FROM user_topics WHERE user_id = $2 AND channel_id = $4 AND topic_key = $6) AS sender_policy,
        (SELECT is_muted FROM subscriptions WHERE user_id = $2 AND channel_id = $4 AND active) AS sender_muted,
        CASE WHEN ${history}
          THEN EXISTS (SELECT 1 FROM messages x WHERE x.recipient_id = $3 AND x.topic_key = $6)
          ELSE EXISTS (SELECT 1 FROM user_messages ux JOIN messages x ON x.id = ux.message_id
                        WHERE ux.user_id = $2 AND x.recipient_id = $3 AND x.topic_key = $6)
        END AS topic_had_messages,
        (SELECT json_agg(json_build_array(user_id, visibility_policy)) FROM user_topics
          WHERE channel_id = $4 AND topic_key = $6 AND user_id = ANY(${mentioned})) AS mentioned_policies`;
    }
    const sql = `
      WITH m AS (
        INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                              date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id
      ),
      r AS (${receivers}),
      um AS (
        INSERT INTO user_messages (user_id, message_id, flags)
        SELECT r.user_id, m.id, $16::int${flagTerms.join('')} FROM r, m
        RETURNING user_id, flags
      )
      SELECT m.id,
        COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um), '{}') AS user_ids,
        COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um), '{}') AS flags${facts}
      FROM m`;
    const rows = await tx.$queryRawUnsafe<
      {
        id: number;
        user_ids: number[];
        flags: number[];
        sender_policy?: number | null;
        sender_muted?: boolean | null;
        topic_had_messages?: boolean;
        mentioned_policies?: [number, number][] | null;
      }[]
    >(sql, ...values);
    const row = rows[0]!;
    return {
      messageId: row.id,
      userIds: row.user_ids,
      flags: row.flags,
      topic: topicFacts
        ? {
            senderPolicy: row.sender_policy ?? 0,
            senderMuted: row.sender_muted ?? null,
            topicHadMessages: row.topic_had_messages ?? false,
            mentionedPolicies: new Map(row.mentioned_policies ?? []),
          }
        : null,
    };
  }

  async messageById(id: number, tx?: Tx): Promise<StoredMessage | null> {
    if (!validId(id)) return null;
    const rows = await (tx ?? this.db).$queryRawUnsafe<MessageRow[]>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.id = $1`,
      id,
    );
    return rows[0] ? toMessage(rows[0]) : null;
  }

  /** The user's flags on a message, or null without a row. */
  async userMessageFlags(userId: number, messageId: number, tx?: Tx): Promise<number | null> {
    const row = await (tx ?? this.db).userMessage.findUnique({
      where: { userId_messageId: { userId, messageId } },
      select: { flags: true },
    });
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
}
