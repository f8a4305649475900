-- POST /messages to a channel whose facts were not read: the statement decides the sender's topic policy.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

WITH facts AS (
      SELECT COALESCE((SELECT visibility_policy FROM user_topics WHERE user_id = $1::int AND channel_id = $2::int AND topic_key = $25), 0) AS cur,
        COALESCE((SELECT is_muted FROM subscriptions WHERE user_id = $1::int AND channel_id = $2::int AND active), false) AS muted,
        CASE WHEN $28::boolean
          THEN EXISTS (SELECT 1 FROM messages x WHERE x.recipient_id = $3::int AND x.topic_key = $25)
          ELSE EXISTS (SELECT 1 FROM user_messages ux JOIN messages x ON x.id = ux.message_id
                        WHERE ux.user_id = $1::int AND x.recipient_id = $3::int AND x.topic_key = $25)
        END AS had
    ),
pol AS (
      SELECT CASE WHEN cur IN (3) THEN NULL::int WHEN $26::int IN (1, 2) THEN 3 WHEN cur NOT IN (0, 2) AND $27::int IN (1, 2) AND muted THEN 2 WHEN cur NOT IN (0) THEN NULL::int WHEN $26::int IN (3) AND NOT had THEN 3 WHEN $27::int IN (1, 2) AND muted THEN 2 WHEN $27::int IN (3) AND muted AND NOT had THEN 2 WHEN true THEN NULL::int END AS policy FROM facts
    ),
m AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES ($10::int, $1::int, $3::int, $2::int, $11, $12, $13, $14, $15::timestamptz, $16, $17::boolean, $18::boolean, $19::boolean, $20::boolean)
      RETURNING id
    ),
r AS (SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.channel_id = $2::int AND s.active AND u.is_active
         UNION SELECT unnest($8::int[])),
um AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, $21::int | CASE WHEN r.user_id = ANY($4::int[]) THEN 8 ELSE 0 END | CASE WHEN r.user_id = ANY($5::int[]) THEN 1 ELSE 0 END | CASE WHEN r.user_id = ANY($6::int[]) THEN 32 ELSE 0 END | CASE WHEN r.user_id = ANY($7::int[]) THEN 128 ELSE 0 END FROM r r, m m
      RETURNING user_id, flags
    ),
sent AS (
      INSERT INTO outbox (event_id, routing_key, envelope)
      SELECT $22::uuid, $23,
        jsonb_set(jsonb_set(jsonb_set(jsonb_set($24::jsonb,
          '{payload,message,id}', to_jsonb(m.id)),
          '{payload,user_ids}', COALESCE((SELECT jsonb_agg(um.user_id ORDER BY um.user_id <> $1::int, um.user_id) FROM um um), '[]'::jsonb)),
          '{payload,flags}', COALESCE((SELECT jsonb_object_agg(um.user_id::text, to_jsonb(array_remove(ARRAY[CASE WHEN um.flags & 1 <> 0 THEN 'read' END, CASE WHEN um.flags & 2 <> 0 THEN 'starred' END, CASE WHEN um.flags & 4 <> 0 THEN 'collapsed' END, CASE WHEN um.flags & 8 <> 0 THEN 'mentioned' END, CASE WHEN um.flags & 16 <> 0 THEN 'stream_wildcard_mentioned' END, CASE WHEN um.flags & 32 <> 0 THEN 'topic_wildcard_mentioned' END, CASE WHEN um.flags & 64 <> 0 THEN 'group_mentioned' END, CASE WHEN um.flags & 128 <> 0 THEN 'has_alert_word' END, CASE WHEN um.flags & 256 <> 0 THEN 'historical' END, CASE WHEN um.flags & 48 <> 0 THEN 'wildcard_mentioned' END], NULL))) FROM um um
                                        WHERE um.flags & 511 <> 0), '{}'::jsonb)),
          '{payload,notify}', jsonb_build_object(
      'bot_ids', COALESCE((SELECT jsonb_agg(u.id) FROM um um JOIN users u ON u.id = um.user_id WHERE u.is_bot), '[]'::jsonb),
      'subscriptions', COALESCE((SELECT jsonb_object_agg(s.user_id::text, jsonb_build_object('push', s.push_notifications,
          'email', s.email_notifications, 'wildcard', s.wildcard_mentions_notify, 'muted', s.is_muted))
        FROM subscriptions s WHERE s.channel_id = $2::int AND s.active AND (s.is_muted OR s.push_notifications IS NOT NULL
          OR s.email_notifications IS NOT NULL OR s.wildcard_mentions_notify IS NOT NULL)), '{}'::jsonb),
      'topic_policies', COALESCE((SELECT jsonb_object_agg(t.user_id::text, t.visibility_policy) FROM user_topics t
        WHERE t.channel_id = $2::int AND t.topic_key = $9 AND t.visibility_policy <> 0), '{}'::jsonb)))
      FROM m
    ),
spol AS (
      INSERT INTO user_topics (user_id, channel_id, topic_name, topic_key, visibility_policy, last_updated)
      SELECT $1::int, $2::int, $29, $25, pol.policy, $30::timestamptz
        FROM pol pol WHERE pol.policy IS NOT NULL
      ON CONFLICT (user_id, channel_id, topic_key) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy,
        topic_name = EXCLUDED.topic_name, last_updated = EXCLUDED.last_updated
    ),
sevent AS (
      INSERT INTO outbox (event_id, routing_key, envelope)
      SELECT $31::uuid, $32,
        jsonb_set($33::jsonb, '{payload,visibility_policy}', to_jsonb(pol.policy))
        FROM pol pol WHERE pol.policy IS NOT NULL
    )
    SELECT m.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um), '{}') AS flags,
      (SELECT policy FROM pol) AS sender_policy
    FROM m;
