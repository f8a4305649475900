/**
 * Narrows as Zulip has them: a list of terms (`channel`, `topic`, `dm`, `sender`, `search`, `is`, `has`, `near`, …)
 * that GET /messages takes as its `narrow` parameter. The client's views and links are all made of them.
 */

export interface Term {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

export { canonicalOperator } from '@confab/zulip';

/** A conversation one can write to: a channel (optionally one topic) or a direct-message conversation. */
export type Conversation = { kind: 'stream'; streamId: number; topic?: string } | { kind: 'dm'; userIds: number[] };

/** The conversation a narrow is, if it is one (`near`/`with` may be added); a search or a filter is not. */
export function conversationOf(terms: readonly Term[]): Conversation | null {
  const rest = terms.filter((t) => t.operator !== 'near' && t.operator !== 'with');
  if (rest.some((t) => t.negated)) return null;
  const channel = rest.find((t) => t.operator === 'channel');
  const topic = rest.find((t) => t.operator === 'topic');
  if (channel && typeof channel.operand === 'number') {
    const expected = topic ? 2 : 1;
    if (rest.length !== expected) return null;
    return topic
      ? { kind: 'stream', streamId: channel.operand, topic: String(topic.operand) }
      : { kind: 'stream', streamId: channel.operand };
  }
  const dm = rest.find((t) => t.operator === 'dm');
  if (dm && rest.length === 1 && Array.isArray(dm.operand))
    return { kind: 'dm', userIds: [...dm.operand].sort((a, b) => a - b) };
  return null;
}

export function conversationTerms(conversation: Conversation): Term[] {
  if (conversation.kind === 'dm') return [{ operator: 'dm', operand: conversation.userIds }];
  const terms: Term[] = [{ operator: 'channel', operand: conversation.streamId }];
  if (conversation.topic !== undefined) terms.push({ operator: 'topic', operand: conversation.topic });
  return terms;
}

/** The message a narrow is centred on (`near/<id>` or `with/<id>`), if any. */
export function anchorOf(terms: readonly Term[]): number | null {
  const near = terms.find((t) => t.operator === 'near' || t.operator === 'with');
  return near && Number.isInteger(Number(near.operand)) ? Number(near.operand) : null;
}

/** The narrow as GET /messages takes it (without `near`, which is the anchor, not a filter). */
export function wireNarrow(terms: readonly Term[]): { operator: string; operand: unknown; negated?: boolean }[] {
  return terms
    .filter((t) => t.operator !== 'near' && t.operator !== 'with')
    .map((t) =>
      t.negated
        ? { operator: t.operator, operand: t.operand, negated: true }
        : { operator: t.operator, operand: t.operand },
    );
}

/** Whether the narrow searches text (the server then answers with highlights). */
export const isSearch = (terms: readonly Term[]): boolean => terms.some((t) => t.operator === 'search');

/** Same narrow (order of terms and of dm ids included). */
export const sameTerms = (a: readonly Term[], b: readonly Term[]): boolean => JSON.stringify(a) === JSON.stringify(b);
