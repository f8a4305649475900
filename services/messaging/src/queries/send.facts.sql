-- what a channel send reads first (the sender's subscription and topic policy, mentioned users).
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

SELECT
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
        WHERE channel_id = $2 AND active AND user_id = ANY($6::int[])) AS mentioned_subscribed;
