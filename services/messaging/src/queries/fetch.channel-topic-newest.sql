-- GET /messages narrowed to a channel and topic, anchor newest, 50 before.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

SELECT m.id AS id, COALESCE(um.flags, 257) AS flags FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = $1 WHERE m.recipient_id = $2::int AND m.channel_id IS NOT NULL AND m.topic_key = $3 ORDER BY m.id DESC LIMIT 50;
