-- GET /messages with anchor first_unread: the user's oldest unread message.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

SELECT um.message_id AS id, um.flags AS flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = $1 AND um.message_id IS NOT NULL AND (um.flags & 1) = 0 ORDER BY um.message_id ASC LIMIT 1;
