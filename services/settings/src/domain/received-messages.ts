import type { Database } from './store.js';

export interface ReceivedMessage {
  messageId: number;
  /** Everyone who received it (sender included), as messaging's `message.sent` lists them. */
  userIds: readonly number[];
}

/**
 * `max_message_id` of GET /users/me follows the messages each user receives (sent by or to them), learned from
 * messaging's `message.sent`. This consumer sees every message, so a delivery batch costs one UPDATE for all its
 * receivers, which only ever raises the value: redelivered or reordered events change nothing. Unlike a user's own
 * changes, which must be in force on their next request (issue 18's read-your-writes), this value is derived from
 * another service's fact and may trail the send by the event's delivery time: acceptable for this deprecated field.
 */
export function recordReceivedMessages(db: Database, messages: readonly ReceivedMessage[]): Promise<void> {
  const maxima = new Map<number, number>();
  for (const { messageId, userIds } of messages) {
    for (const userId of userIds) maxima.set(userId, Math.max(maxima.get(userId) ?? -1, messageId));
  }
  return db.store.users.raiseMaxMessageIds(maxima);
}
