import { invalid } from '@confab/errors';
import type { Actor, Domain } from './context.js';
import { accessMessage } from './fetch.js';

/** The storage read-receipt answers need (a port this domain owns; docs/architecture.md, "Data access"). */
export interface ReadReceiptSource {
  /**
   * Active users who read the message and share that they did, other than its sender, leaving out users who muted
   * the viewer and users the viewer muted; ascending.
   */
  readers(messageId: number, senderId: number, viewerId: number): Promise<number[]>;
}

/** GET /messages/{message_id}/read_receipts (Zulip's read_receipts view). */
export async function readReceipts(domain: Domain, actor: Actor, messageId: number): Promise<{ user_ids: number[] }> {
  if (!actor.realm.enableReadReceipts) throw invalid('Read receipts are disabled in this organization.');
  const { message } = await accessMessage(domain, actor, messageId);
  return { user_ids: await domain.receipts.readers(message.id, message.senderId, actor.user.id) };
}
