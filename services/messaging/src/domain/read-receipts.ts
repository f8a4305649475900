import { invalid } from '@confab/errors';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';

/** GET /messages/{message_id}/read_receipts (Zulip's read_receipts view). */
export async function readReceipts(domain: Domain, actor: Actor, messageId: number): Promise<{ user_ids: number[] }> {
  if (!actor.realm.enableReadReceipts) throw invalid('Read receipts are disabled in this organization.');
  const { message } = await accessMessage(domain, actor, messageId);
  return { user_ids: await domain.receipts.readers(message.id, message.senderId, actor.user.id) };
}
