import { FLAG, type FlagName } from '@confab/zulip';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { fetchRange, resolveNarrow, type Anchor } from './fetch.js';
import { updateFlags } from './message-flags.js';
import type { RawTerm } from './narrow.js';

/** Zulip's MAX_MESSAGES_PER_UPDATE: the most messages one call changes. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

/**
 * POST /messages/flags/narrow (Zulip's update_message_flags_for_narrow): the messages of a narrow around an anchor,
 * as GET /messages would find them (the range clamped to 5,000 messages), get the flag added or removed as POST
 * /messages/flags does, with its checks and its event. Clients page through a large narrow with the processed ids
 * and the found_* answers.
 */
export async function updateFlagsForNarrow(
  domain: Domain,
  actor: Actor,
  input: {
    anchor: Anchor;
    includeAnchor: boolean;
    numBefore: number;
    numAfter: number;
    narrow: RawTerm[];
    op: string;
    flag: string;
  },
): Promise<Record<string, unknown>> {
  // Clamped as Zulip does, so that num_before + num_after <= MAX_MESSAGES_PER_UPDATE.
  const numBefore = Math.min(
    input.numBefore,
    Math.max(MAX_MESSAGES_PER_UPDATE - input.numAfter, MAX_MESSAGES_PER_UPDATE / 2),
  );
  const numAfter = Math.min(input.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const { terms, scope } = await resolveNarrow(domain, actor, input.narrow);
  const range = await fetchRange(
    domain,
    { userId: actor.user.id, scope, terms },
    {
      anchor: input.anchor,
      includeAnchor: input.includeAnchor,
      numBefore,
      numAfter,
    },
  );
  const ids = range.kept.map((r) => r.id);
  const before = new Map(range.kept.map((r) => [r.id, r.flags]));
  const { messages } = await updateFlags(domain, actor, { messages: ids, op: input.op, flag: input.flag });
  const bit = FLAG[input.flag as FlagName];
  const set = input.op === 'add';
  const updated = messages.filter((id) => ((before.get(id)! & bit) !== 0) !== set).length;
  return {
    processed_count: ids.length,
    updated_count: updated,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
  };
}
