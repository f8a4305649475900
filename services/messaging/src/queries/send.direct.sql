-- POST /messages to a direct conversation.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

WITH m AS (
      INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
                            date_sent, sending_client, is_me_message, has_attachment, has_image, has_link)
      VALUES ($10::int, $1::int, $3::int, $2::int, $11, $12, $13, $14, $15::timestamptz, $16, $17::boolean, $18::boolean, $19::boolean, $20::boolean)
      RETURNING id
    ),
r AS (SELECT DISTINCT unnest($8::int[]) AS user_id),
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
    )
    SELECT m.id,
      COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM um), '{}') AS user_ids,
      COALESCE((SELECT array_agg(flags ORDER BY user_id) FROM um), '{}') AS flags,
      NULL::int AS sender_policy
    FROM m;
