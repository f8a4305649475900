import { ConfabError } from '@confab/errors';

/** A narrow term as the client sent it (dict or legacy [operator, operand] pair). */
export interface RawTerm {
  operator: string;
  operand: string | number | number[] | string[];
  negated: boolean;
}

/** Terms the storage layer understands, after names were resolved to ids. */
export type Term =
  | { kind: 'recipients'; recipientIds: number[]; negated: boolean }
  | { kind: 'topic'; topicKey: string; negated: boolean }
  | { kind: 'sender'; userId: number; negated: boolean }
  | { kind: 'dmIncluding'; userId: number; negated: boolean }
  | { kind: 'direct'; negated: boolean }
  | { kind: 'flags'; bits: number; set: boolean; negated: boolean }
  | { kind: 'resolved'; negated: boolean }
  | { kind: 'has'; what: 'link' | 'image' | 'attachment' | 'reaction'; negated: boolean }
  | { kind: 'id'; id: number; negated: boolean }
  | { kind: 'search'; text: string; negated: boolean }
  | { kind: 'none'; negated?: boolean };

/** Where messages are searched: the user's own rows, or whole channels whose history the user may read. */
export type SearchScope = { kind: 'user' } | { kind: 'history'; recipientIds: number[] };

/** What a narrow reads: the messages of `scope` that match every term, with the user's flags. */
export interface MessageQuery {
  userId: number;
  scope: SearchScope;
  terms: readonly Term[];
}

export const badNarrow = (detail: string) =>
  new ConfabError(`Invalid narrow operator: ${detail}`, { code: 'BAD_NARROW' });
