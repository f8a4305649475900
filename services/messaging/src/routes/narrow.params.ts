import { t, type Schema } from '@confab/http';
import type { RawTerm } from '../domain/narrow.js';

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
