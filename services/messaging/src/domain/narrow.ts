import { ConfabError } from '@confab/errors';
import { t, type Schema } from '@confab/http';

/** A narrow term as the client sent it (dict or legacy [operator, operand] pair). */
export interface RawTerm {
  operator: string;
  operand: string | number | number[] | string[];
  negated: boolean;
}

const operand: Schema<RawTerm['operand']> = {
  parse(value, loc) {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) return value;
    if (
      Array.isArray(value) &&
      (value.every((v) => typeof v === 'string') || value.every((v) => Number.isInteger(v)))
    ) {
      return value as number[] | string[];
    }
    return t.string().parse(value, loc);
  },
};

const dictTerm = t.object({ operator: t.string(), operand, negated: t.optional(t.bool(), false) });

/** Zulip's narrow parameter: a JSON list of {operator, operand, negated?} or [operator, operand]. */
export const narrowSchema: Schema<RawTerm[]> = {
  parse(value, loc) {
    if (!Array.isArray(value)) return t.list(dictTerm).parse(value, loc);
    return value.map((item, index) => {
      if (Array.isArray(item)) {
        if (item.length !== 2 || typeof item[0] !== 'string') return dictTerm.parse(item, [...loc, index]);
        return { operator: item[0], operand: operand.parse(item[1], [...loc, index, 1]), negated: false };
      }
      return dictTerm.parse(item, [...loc, index]);
    });
  },
};

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

export const badNarrow = (detail: string) =>
  new ConfabError(`Invalid narrow operator: ${detail}`, { code: 'BAD_NARROW' });

export const RESOLVED_TOPIC_PREFIX = '✔ ';
