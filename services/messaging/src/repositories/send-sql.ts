import { contracts, OUTBOX_INSERT, type EventContract } from '@confab/events';
import { FLAG, VISIBLE_FLAGS, WILDCARD_MENTION_BITS } from '@confab/zulip';
import type { SendFactsInput, SendWrite } from '../domain/message-store.js';
import { SEND_POLICY_RULE } from '../domain/topic-policy.js';

export type { Delivery, NewMessage, SendWrite } from '../domain/message-store.js';

/**
 * The events the send statement completes in SQL (the message's id, receivers and flags; the sender's automatic
 * topic policy): the outbox relay checks them against their contracts before publishing (RelayOptions.validate).
 */
export const COMPLETED_IN_SQL: readonly EventContract<unknown>[] = [
  contracts.messageSent,
  contracts.userTopicChanged,
  contracts.outgoingWebhookTriggered,
  contracts.linkPreviewsRequested,
];

// The deprecated `wildcard_mentioned` follows the visible flags for older clients.
const VISIBLE_MASK = VISIBLE_FLAGS.reduce((mask, name) => mask | FLAG[name], 0);

/** SQL for the list of flag names of `um.flags` (the same list flagNames() builds in JS). */
const FLAG_NAMES_SQL = `to_jsonb(array_remove(ARRAY[${[
  ...VISIBLE_FLAGS.map((name) => `CASE WHEN um.flags & ${FLAG[name]} <> 0 THEN '${name}' END`),
  `CASE WHEN um.flags & ${WILDCARD_MENTION_BITS} <> 0 THEN 'wildcard_mentioned' END`,
].join(', ')}], NULL))`;

/**
 * One statement that writes a message, every receiver's row, the outbox events (the message.sent envelope completed
 * with the new id, receivers and flags), the topic policies it changes and the channel's first message: a single
 * statement is atomic, so the send needs no explicit transaction and one round trip.
 */
export function sendStatement(write: SendWrite): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const { ctes, result } = sendParts(write, paramsInto(values), '');
  return { text: `WITH ${ctes.join(',\n')}\n    ${result}`, values };
}

/**
 * Several sends in one statement (group commit, see MessageWriter): each send's CTEs under names of its own, and one
 * result row per send, in the order given (column `i`). One statement is one transaction: if any send fails, all
 * fail, and the caller sends them one by one instead.
 */
export function sendBatchStatement(writes: readonly SendWrite[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = paramsInto(values);
  const parts = writes.map((write, i) => sendParts(write, param, `_${i}`));
  const ctes = parts.flatMap((p) => p.ctes);
  const results = parts.map((p, i) => `(${p.result.replace(/^SELECT /, `SELECT ${i} AS i, `)})`);
  return { text: `WITH ${ctes.join(',\n')}\n    ${results.join('\n    UNION ALL ')}\n    ORDER BY i`, values };
}

/** Whether a send may share a statement with others: no writes that two sends could make to the same row. */
export function batchable(write: SendWrite): boolean {
  return write.policies.length === 0 && write.otherEvents.length === 0 && !write.setFirstMessageId;
}

type Param = (value: unknown, cast?: string) => string;

function paramsInto(values: unknown[]): Param {
  return (value, cast = '') => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
}

/**
 * The message.sent envelope's `notify` (contracts.messageNotifyFacts): the receivers who are bots, and for a channel
 * message the subscriptions with notification settings of their own and the receivers' policies for the topic; what
 * the push service decides notifications with (Zulip's get_recipient_info). Read on the snapshot before the send.
 */
export function notifyFactsSql(receivers: string, channel: string, topicKey: string): string {
  return `jsonb_build_object(
      'bot_ids', COALESCE((SELECT jsonb_agg(u.id) FROM ${receivers} um JOIN users u ON u.id = um.user_id WHERE u.is_bot), '[]'::jsonb),
      'subscriptions', COALESCE((SELECT jsonb_object_agg(s.user_id::text, jsonb_build_object('push', s.push_notifications,
          'email', s.email_notifications, 'wildcard', s.wildcard_mentions_notify, 'muted', s.is_muted))
        FROM subscriptions s WHERE s.channel_id = ${channel} AND s.active AND (s.is_muted OR s.push_notifications IS NOT NULL
          OR s.email_notifications IS NOT NULL OR s.wildcard_mentions_notify IS NOT NULL)), '{}'::jsonb),
      'topic_policies', COALESCE((SELECT jsonb_object_agg(t.user_id::text, t.visibility_policy) FROM user_topics t
        WHERE t.channel_id = ${channel} AND t.topic_key = ${topicKey} AND t.visibility_policy <> 0), '{}'::jsonb))`;
}

/** The flags a send sets for some receivers: always these terms, in this order (empty lists included). */
const FLAG_TERMS = [FLAG.mentioned, FLAG.read, FLAG.topic_wildcard_mentioned, FLAG.has_alert_word];

/**
 * The receivers of each flag bit, one term per bit: the usual bits always (so a send's statement has the same text
 * whoever is mentioned, muted or alerted, and is planned once per shape), any other bit when it has receivers.
 */
function flagGroups(flagged: SendWrite['delivery']['flagged']): [bit: number, userIds: number[]][] {
  const byBit = new Map<number, number[]>(FLAG_TERMS.map((bit) => [bit, []]));
  for (const { bit, userIds } of flagged) {
    if (userIds.length === 0) continue;
    const ids = byBit.get(bit);
    if (ids) ids.push(...userIds);
    else byBit.set(bit, [...userIds]);
  }
  return [...byBit];
}

/** One send's CTEs (names ending in `sfx`) and the SELECT of its result row. */
function sendParts(write: SendWrite, param: Param, sfx: string): { ctes: string[]; result: string } {
  const { message, delivery } = write;
  const sender = param(message.senderId, '::int');
  const channel = param(message.channelId, '::int');
  const recipient = param(message.recipientId, '::int');
  const flagTerms = flagGroups(delivery.flagged)
    .map(([bit, userIds]) => ` | CASE WHEN r.user_id = ANY(${param(userIds, '::int[]')}) THEN ${bit} ELSE 0 END`)
    .join('');
  const extra = param(delivery.extraUserIds, '::int[]');
  const notifyTopic = param(message.topicKey);
  const receivers =
    delivery.channelId === null
      ? `SELECT DISTINCT unnest(${extra}) AS user_id`
      : `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.channel_id = ${channel} AND s.active AND u.is_active
         UNION SELECT unnest(${extra})`;
  const ctes = [
    `m${sfx} AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES (${[
        param(message.realmId, '::int'),
        sender,
        recipient,
        channel,
        param(message.topic),
        param(message.topicKey),
        param(message.content),
        param(message.renderedContent),
        param(message.dateSent, '::timestamptz'),
        param(message.sendingClient),
        param(message.isMeMessage, '::boolean'),
        param(message.hasAttachment, '::boolean'),
        param(message.hasImage, '::boolean'),
        param(message.hasLink, '::boolean'),
      ].join(', ')})
      RETURNING id
    )`,
    `r${sfx} AS (${receivers})`,
    `um${sfx} AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, ${param(delivery.baseFlags, '::int')}${flagTerms} FROM r${sfx} r, m${sfx} m
      RETURNING user_id, flags
    )`,
    `sent${sfx} AS (
      ${OUTBOX_INSERT}
      SELECT ${param(write.sentEvent.eventId, '::uuid')}, ${param(write.sentEvent.routingKey)},
        jsonb_set(jsonb_set(jsonb_set(jsonb_set(${param(JSON.stringify(write.sentEvent.envelope), '::jsonb')},
          '{payload,message,id}', to_jsonb(m${sfx}.id)),
          '{payload,user_ids}', COALESCE((SELECT jsonb_agg(um.user_id ORDER BY um.user_id <> ${sender}, um.user_id) FROM um${sfx} um), '[]'::jsonb)),
          '{payload,flags}', COALESCE((SELECT jsonb_object_agg(um.user_id::text, ${FLAG_NAMES_SQL}) FROM um${sfx} um
                                        WHERE um.flags & ${VISIBLE_MASK} <> 0), '{}'::jsonb)),
          '{payload,notify}', ${notifyFactsSql(`um${sfx}`, channel, notifyTopic)})
      FROM m${sfx}
    )`,
  ];
  if (write.clientIds) {
    // The client's ids beside the message: a repeat violates the primary key and the whole statement rolls back
    // (RepeatedSend). Sends without them have the statement without this CTE.
    ctes.push(`lid${sfx} AS (
      INSERT INTO sent_local_ids (sender_id, queue_id, local_id, message_id)
      SELECT ${sender}, ${param(write.clientIds.queueId)}, ${param(write.clientIds.localId)}, m${sfx}.id FROM m${sfx}
    )`);
  }
  // Only messages that trigger bots or have links to preview have these CTEs: the common statement is unchanged.
  (write.idEvents ?? []).forEach(({ record: e, idPath }, i) => {
    ctes.push(`ide${i}${sfx} AS (
      ${OUTBOX_INSERT}
      SELECT ${param(e.eventId, '::uuid')}, ${param(e.routingKey)},
        jsonb_set(${param(JSON.stringify(e.envelope), '::jsonb')}, '${idPath}', to_jsonb(m${sfx}.id))
      FROM m${sfx}
    )`);
  });
  if (write.otherEvents.length > 0) {
    const rows = write.otherEvents.map(
      (e) => `(${param(e.eventId, '::uuid')}, ${param(e.routingKey)}, ${param(JSON.stringify(e.envelope), '::jsonb')})`,
    );
    ctes.push(`other${sfx} AS (${OUTBOX_INSERT} VALUES ${rows.join(', ')})`);
  }
  if (write.policies.length > 0) {
    const p = write.policies;
    ctes.push(`topics${sfx} AS (
      INSERT INTO user_topics (user_id, channel_id, topic_name, topic_key, visibility_policy, last_updated)
      SELECT *, ${param(message.dateSent, '::timestamptz')} FROM unnest(${param(
        p.map((c) => c.userId),
        '::int[]',
      )},
        ${param(
          p.map((c) => c.channelId),
          '::int[]',
        )}, ${param(
          p.map((c) => c.topicName),
          '::text[]',
        )},
        ${param(
          p.map((c) => c.topicKey),
          '::text[]',
        )}, ${param(
          p.map((c) => c.policy),
          '::int[]',
        )})
      ON CONFLICT (user_id, channel_id, topic_key) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy,
        topic_name = EXCLUDED.topic_name, last_updated = EXCLUDED.last_updated
    )`);
  }
  if (write.senderPolicy && message.channelId !== null) {
    const sp = write.senderPolicy;
    const topicKey = param(message.topicKey);
    const follow = param(sp.follow, '::int');
    const unmute = param(sp.unmute, '::int');
    // Zulip's visibility_policy_for_send_message in SQL, on the state before this statement (CTE snapshot).
    ctes.unshift(
      `facts${sfx} AS (
      SELECT COALESCE((SELECT visibility_policy FROM user_topics WHERE user_id = ${sender} AND channel_id = ${channel} AND topic_key = ${topicKey}), 0) AS cur,
        COALESCE((SELECT is_muted FROM subscriptions WHERE user_id = ${sender} AND channel_id = ${channel} AND active), false) AS muted,
        CASE WHEN ${param(sp.historyPublic, '::boolean')}
          THEN EXISTS (SELECT 1 FROM messages x WHERE x.recipient_id = ${recipient} AND x.topic_key = ${topicKey})
          ELSE EXISTS (SELECT 1 FROM user_messages ux JOIN messages x ON x.id = ux.message_id
                        WHERE ux.user_id = ${sender} AND x.recipient_id = ${recipient} AND x.topic_key = ${topicKey})
        END AS had
    )`,
      `pol${sfx} AS (
      SELECT ${sendPolicySql({ current: 'cur', follow, unmute, muted: 'muted', had: 'had' })} AS policy FROM facts${sfx}
    )`,
    );
    ctes.push(
      `spol${sfx} AS (
      INSERT INTO user_topics (user_id, channel_id, topic_name, topic_key, visibility_policy, last_updated)
      SELECT ${sender}, ${channel}, ${param(sp.topicName)}, ${topicKey}, pol.policy, ${param(message.dateSent, '::timestamptz')}
        FROM pol${sfx} pol WHERE pol.policy IS NOT NULL
      ON CONFLICT (user_id, channel_id, topic_key) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy,
        topic_name = EXCLUDED.topic_name, last_updated = EXCLUDED.last_updated
    )`,
      `sevent${sfx} AS (
      ${OUTBOX_INSERT}
      SELECT ${param(sp.event.eventId, '::uuid')}, ${param(sp.event.routingKey)},
        jsonb_set(${param(JSON.stringify(sp.event.envelope), '::jsonb')}, '{payload,visibility_policy}', to_jsonb(pol.policy))
        FROM pol${sfx} pol WHERE pol.policy IS NOT NULL
    )`,
    );
  }
  if (write.setFirstMessageId && message.channelId !== null) {
    ctes.push(
      `first${sfx} AS (UPDATE channels SET first_message_id = m${sfx}.id FROM m${sfx} WHERE channels.id = ${channel} AND channels.first_message_id IS NULL)`,
    );
  }
  const policy = write.senderPolicy && message.channelId !== null ? `(SELECT policy FROM pol${sfx})` : 'NULL::int';
  const result = `SELECT m${sfx}.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um${sfx}), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um${sfx}), '{}') AS flags,
      ${policy} AS sender_policy
    FROM m${sfx}`;
  return { ctes, result };
}

/**
 * What the automatic topic policies depend on, read just before sending: the sender's subscription and policy,
 * whether the topic already had messages the sender could see, and the mentioned users' policies.
 */
export function sendFactsQuery(input: SendFactsInput): { text: string; values: unknown[] } {
  return {
    text: `SELECT
      (SELECT active FROM subscriptions WHERE user_id = $1 AND channel_id = $2) AS sub_active,
      (SELECT is_muted FROM subscriptions WHERE user_id = $1 AND channel_id = $2) AS sub_muted,
      (SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND topic_key = $4) AS sender_policy,
      CASE WHEN $5::boolean
        THEN EXISTS (SELECT 1 FROM messages x WHERE x.recipient_id = $3 AND x.topic_key = $4)
        ELSE EXISTS (SELECT 1 FROM user_messages ux JOIN messages x ON x.id = ux.message_id
                      WHERE ux.user_id = $1 AND x.recipient_id = $3 AND x.topic_key = $4)
      END AS topic_had_messages,
      (SELECT json_agg(json_build_array(user_id, visibility_policy)) FROM user_topics
        WHERE channel_id = $2 AND topic_key = $4 AND user_id = ANY($6::int[])) AS mentioned_policies,
      (SELECT array_agg(user_id) FROM subscriptions
        WHERE channel_id = $2 AND active AND user_id = ANY($6::int[])) AS mentioned_subscribed`,
    values: [
      input.userId,
      input.channelId,
      input.recipientId,
      input.topicKey,
      input.historyPublic,
      input.mentionedUserIds,
    ],
  };
}

/**
 * Zulip's visibility_policy_for_send_message in SQL, written from the domain's table (SEND_POLICY_RULE), over the
 * given column or parameter expressions: a CASE whose WHENs are the table's rows in order.
 */
export function sendPolicySql(columns: {
  current: string;
  follow: string;
  unmute: string;
  muted: string;
  had: string;
}): string {
  const list = (values: readonly number[]) => values.map((v) => String(Math.trunc(v))).join(', ');
  const whens = SEND_POLICY_RULE.map((row) => {
    const conditions = [
      row.current && `${columns.current} IN (${list(row.current)})`,
      row.currentNot && `${columns.current} NOT IN (${list(row.currentNot)})`,
      row.follow && `${columns.follow} IN (${list(row.follow)})`,
      row.unmute && `${columns.unmute} IN (${list(row.unmute)})`,
      row.muted !== undefined && (row.muted ? columns.muted : `NOT ${columns.muted}`),
      row.had !== undefined && (row.had ? columns.had : `NOT ${columns.had}`),
    ].filter((c): c is string => typeof c === 'string');
    return `WHEN ${conditions.length > 0 ? conditions.join(' AND ') : 'true'} THEN ${row.then === null ? 'NULL::int' : String(row.then)}`;
  });
  return `CASE ${whens.join(' ')} END`;
}
