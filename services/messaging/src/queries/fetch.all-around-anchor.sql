-- GET /messages of the user's own messages (no narrow), 50 before and 50 after an anchor.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

SELECT um.message_id AS id, um.flags AS flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = $1 AND um.message_id <= $2::bigint ORDER BY um.message_id DESC LIMIT 51;

SELECT um.message_id AS id, um.flags AS flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = $1 AND um.message_id >= $2::bigint ORDER BY um.message_id ASC LIMIT 51;
