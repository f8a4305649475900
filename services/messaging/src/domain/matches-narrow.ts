import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { resolveNarrow } from './fetch.js';
import type { RawTerm } from './narrow.js';
import { searchFields, searchWords } from './search-fields.js';

/**
 * GET /messages/matches_narrow (Zulip's messages_in_narrow_backend): which of the given messages match a narrow,
 * each with its search fields as GET /messages writes them for that narrow. Only messages the user received are
 * considered (their own message rows), as in Zulip.
 */
export async function messagesMatchingNarrow(
  domain: Domain,
  actor: Actor,
  messageIds: readonly number[],
  narrow: readonly RawTerm[],
): Promise<{ messages: Record<string, { match_content: string; match_subject: string }> }> {
  const { terms } = await resolveNarrow(domain, actor, narrow);
  const rows = await domain.messages.fetchIds({ userId: actor.user.id, scope: { kind: 'user' }, terms }, messageIds);
  const words = searchWords(terms);
  const messages: Record<string, { match_content: string; match_subject: string }> = {};
  for (const message of await domain.messages.messagesByIds(rows.map((r) => r.id))) {
    messages[String(message.id)] = searchFields(message, words);
  }
  return { messages };
}
