import type { Database } from './store.js';

/**
 * `max_message_id` of GET /users/me follows the messages each user receives (sent by or to them), learned from
 * messaging's `message.sent`, whose payload lists the receivers: one UPDATE per message for all of them, which
 * only ever raises the value, so a redelivered or reordered event changes nothing. Unlike a user's own changes
 * (which must be in force on their next request, issue 18), this is a value derived from another service's fact:
 * it may trail the send by the event's delivery time, which is acceptable for this deprecated field.
 */
export function recordReceivedMessage(db: Database, userIds: readonly number[], messageId: number): Promise<void> {
  return db.store.users.raiseMaxMessageId(userIds, messageId);
}
