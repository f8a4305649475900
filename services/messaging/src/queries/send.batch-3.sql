-- three channel sends that waited for the lane, written together (group commit).
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

WITH m_0 AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES ($10::int, $1::int, $3::int, $2::int, $11, $12, $13, $14, $15::timestamptz, $16, $17::boolean, $18::boolean, $19::boolean, $20::boolean)
      RETURNING id
    ),
r_0 AS (SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.channel_id = $2::int AND s.active AND u.is_active
         UNION SELECT unnest($8::int[])),
um_0 AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, $21::int | CASE WHEN r.user_id = ANY($4::int[]) THEN 8 ELSE 0 END | CASE WHEN r.user_id = ANY($5::int[]) THEN 1 ELSE 0 END | CASE WHEN r.user_id = ANY($6::int[]) THEN 32 ELSE 0 END | CASE WHEN r.user_id = ANY($7::int[]) THEN 128 ELSE 0 END FROM r_0 r, m_0 m
      RETURNING user_id, flags
    ),
sent_0 AS (
      INSERT INTO outbox (event_id, routing_key, envelope)
      SELECT $22::uuid, $23,
        jsonb_set(jsonb_set(jsonb_set(jsonb_set($24::jsonb,
          '{payload,message,id}', to_jsonb(m_0.id)),
          '{payload,user_ids}', COALESCE((SELECT jsonb_agg(um.user_id ORDER BY um.user_id <> $1::int, um.user_id) FROM um_0 um), '[]'::jsonb)),
          '{payload,flags}', COALESCE((SELECT jsonb_object_agg(um.user_id::text, to_jsonb(array_remove(ARRAY[CASE WHEN um.flags & 1 <> 0 THEN 'read' END, CASE WHEN um.flags & 2 <> 0 THEN 'starred' END, CASE WHEN um.flags & 4 <> 0 THEN 'collapsed' END, CASE WHEN um.flags & 8 <> 0 THEN 'mentioned' END, CASE WHEN um.flags & 16 <> 0 THEN 'stream_wildcard_mentioned' END, CASE WHEN um.flags & 32 <> 0 THEN 'topic_wildcard_mentioned' END, CASE WHEN um.flags & 64 <> 0 THEN 'group_mentioned' END, CASE WHEN um.flags & 128 <> 0 THEN 'has_alert_word' END, CASE WHEN um.flags & 256 <> 0 THEN 'historical' END, CASE WHEN um.flags & 48 <> 0 THEN 'wildcard_mentioned' END], NULL))) FROM um_0 um
                                        WHERE um.flags & 511 <> 0), '{}'::jsonb)),
          '{payload,notify}', jsonb_build_object(
      'bot_ids', COALESCE((SELECT jsonb_agg(u.id) FROM um_0 um JOIN users u ON u.id = um.user_id WHERE u.is_bot), '[]'::jsonb),
      'subscriptions', COALESCE((SELECT jsonb_object_agg(s.user_id::text, jsonb_build_object('push', s.push_notifications,
          'email', s.email_notifications, 'wildcard', s.wildcard_mentions_notify, 'muted', s.is_muted))
        FROM subscriptions s WHERE s.channel_id = $2::int AND s.active AND (s.is_muted OR s.push_notifications IS NOT NULL
          OR s.email_notifications IS NOT NULL OR s.wildcard_mentions_notify IS NOT NULL)), '{}'::jsonb),
      'topic_policies', COALESCE((SELECT jsonb_object_agg(t.user_id::text, t.visibility_policy) FROM user_topics t
        WHERE t.channel_id = $2::int AND t.topic_key = $9 AND t.visibility_policy <> 0), '{}'::jsonb)))
      FROM m_0
    ),
m_1 AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES ($34::int, $25::int, $27::int, $26::int, $35, $36, $37, $38, $39::timestamptz, $40, $41::boolean, $42::boolean, $43::boolean, $44::boolean)
      RETURNING id
    ),
r_1 AS (SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.channel_id = $26::int AND s.active AND u.is_active
         UNION SELECT unnest($32::int[])),
um_1 AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, $45::int | CASE WHEN r.user_id = ANY($28::int[]) THEN 8 ELSE 0 END | CASE WHEN r.user_id = ANY($29::int[]) THEN 1 ELSE 0 END | CASE WHEN r.user_id = ANY($30::int[]) THEN 32 ELSE 0 END | CASE WHEN r.user_id = ANY($31::int[]) THEN 128 ELSE 0 END FROM r_1 r, m_1 m
      RETURNING user_id, flags
    ),
sent_1 AS (
      INSERT INTO outbox (event_id, routing_key, envelope)
      SELECT $46::uuid, $47,
        jsonb_set(jsonb_set(jsonb_set(jsonb_set($48::jsonb,
          '{payload,message,id}', to_jsonb(m_1.id)),
          '{payload,user_ids}', COALESCE((SELECT jsonb_agg(um.user_id ORDER BY um.user_id <> $25::int, um.user_id) FROM um_1 um), '[]'::jsonb)),
          '{payload,flags}', COALESCE((SELECT jsonb_object_agg(um.user_id::text, to_jsonb(array_remove(ARRAY[CASE WHEN um.flags & 1 <> 0 THEN 'read' END, CASE WHEN um.flags & 2 <> 0 THEN 'starred' END, CASE WHEN um.flags & 4 <> 0 THEN 'collapsed' END, CASE WHEN um.flags & 8 <> 0 THEN 'mentioned' END, CASE WHEN um.flags & 16 <> 0 THEN 'stream_wildcard_mentioned' END, CASE WHEN um.flags & 32 <> 0 THEN 'topic_wildcard_mentioned' END, CASE WHEN um.flags & 64 <> 0 THEN 'group_mentioned' END, CASE WHEN um.flags & 128 <> 0 THEN 'has_alert_word' END, CASE WHEN um.flags & 256 <> 0 THEN 'historical' END, CASE WHEN um.flags & 48 <> 0 THEN 'wildcard_mentioned' END], NULL))) FROM um_1 um
                                        WHERE um.flags & 511 <> 0), '{}'::jsonb)),
          '{payload,notify}', jsonb_build_object(
      'bot_ids', COALESCE((SELECT jsonb_agg(u.id) FROM um_1 um JOIN users u ON u.id = um.user_id WHERE u.is_bot), '[]'::jsonb),
      'subscriptions', COALESCE((SELECT jsonb_object_agg(s.user_id::text, jsonb_build_object('push', s.push_notifications,
          'email', s.email_notifications, 'wildcard', s.wildcard_mentions_notify, 'muted', s.is_muted))
        FROM subscriptions s WHERE s.channel_id = $26::int AND s.active AND (s.is_muted OR s.push_notifications IS NOT NULL
          OR s.email_notifications IS NOT NULL OR s.wildcard_mentions_notify IS NOT NULL)), '{}'::jsonb),
      'topic_policies', COALESCE((SELECT jsonb_object_agg(t.user_id::text, t.visibility_policy) FROM user_topics t
        WHERE t.channel_id = $26::int AND t.topic_key = $33 AND t.visibility_policy <> 0), '{}'::jsonb)))
      FROM m_1
    ),
m_2 AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES ($58::int, $49::int, $51::int, $50::int, $59, $60, $61, $62, $63::timestamptz, $64, $65::boolean, $66::boolean, $67::boolean, $68::boolean)
      RETURNING id
    ),
r_2 AS (SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.channel_id = $50::int AND s.active AND u.is_active
         UNION SELECT unnest($56::int[])),
um_2 AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, $69::int | CASE WHEN r.user_id = ANY($52::int[]) THEN 8 ELSE 0 END | CASE WHEN r.user_id = ANY($53::int[]) THEN 1 ELSE 0 END | CASE WHEN r.user_id = ANY($54::int[]) THEN 32 ELSE 0 END | CASE WHEN r.user_id = ANY($55::int[]) THEN 128 ELSE 0 END FROM r_2 r, m_2 m
      RETURNING user_id, flags
    ),
sent_2 AS (
      INSERT INTO outbox (event_id, routing_key, envelope)
      SELECT $70::uuid, $71,
        jsonb_set(jsonb_set(jsonb_set(jsonb_set($72::jsonb,
          '{payload,message,id}', to_jsonb(m_2.id)),
          '{payload,user_ids}', COALESCE((SELECT jsonb_agg(um.user_id ORDER BY um.user_id <> $49::int, um.user_id) FROM um_2 um), '[]'::jsonb)),
          '{payload,flags}', COALESCE((SELECT jsonb_object_agg(um.user_id::text, to_jsonb(array_remove(ARRAY[CASE WHEN um.flags & 1 <> 0 THEN 'read' END, CASE WHEN um.flags & 2 <> 0 THEN 'starred' END, CASE WHEN um.flags & 4 <> 0 THEN 'collapsed' END, CASE WHEN um.flags & 8 <> 0 THEN 'mentioned' END, CASE WHEN um.flags & 16 <> 0 THEN 'stream_wildcard_mentioned' END, CASE WHEN um.flags & 32 <> 0 THEN 'topic_wildcard_mentioned' END, CASE WHEN um.flags & 64 <> 0 THEN 'group_mentioned' END, CASE WHEN um.flags & 128 <> 0 THEN 'has_alert_word' END, CASE WHEN um.flags & 256 <> 0 THEN 'historical' END, CASE WHEN um.flags & 48 <> 0 THEN 'wildcard_mentioned' END], NULL))) FROM um_2 um
                                        WHERE um.flags & 511 <> 0), '{}'::jsonb)),
          '{payload,notify}', jsonb_build_object(
      'bot_ids', COALESCE((SELECT jsonb_agg(u.id) FROM um_2 um JOIN users u ON u.id = um.user_id WHERE u.is_bot), '[]'::jsonb),
      'subscriptions', COALESCE((SELECT jsonb_object_agg(s.user_id::text, jsonb_build_object('push', s.push_notifications,
          'email', s.email_notifications, 'wildcard', s.wildcard_mentions_notify, 'muted', s.is_muted))
        FROM subscriptions s WHERE s.channel_id = $50::int AND s.active AND (s.is_muted OR s.push_notifications IS NOT NULL
          OR s.email_notifications IS NOT NULL OR s.wildcard_mentions_notify IS NOT NULL)), '{}'::jsonb),
      'topic_policies', COALESCE((SELECT jsonb_object_agg(t.user_id::text, t.visibility_policy) FROM user_topics t
        WHERE t.channel_id = $50::int AND t.topic_key = $57 AND t.visibility_policy <> 0), '{}'::jsonb)))
      FROM m_2
    )
    (SELECT 0 AS i, m_0.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um_0), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um_0), '{}') AS flags,
      NULL::int AS sender_policy
    FROM m_0)
    UNION ALL (SELECT 1 AS i, m_1.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um_1), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um_1), '{}') AS flags,
      NULL::int AS sender_policy
    FROM m_1)
    UNION ALL (SELECT 2 AS i, m_2.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um_2), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um_2), '{}') AS flags,
      NULL::int AS sender_policy
    FROM m_2)
    ORDER BY i;
