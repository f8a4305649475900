/**
 * Zulip's search syntax: words, and `operator:operand` terms (`channel:Denmark`, `topic:"castle walls"`,
 * `sender:iago@zulip.com`, `has:link`, `is:starred`, `-is:read`, …). Words become one `search` term, as in Zulip.
 */
import { canonicalOperator, type Term } from '../lib/narrow';

const OPERATORS = new Set([
  'channel',
  'channels',
  'topic',
  'sender',
  'has',
  'is',
  'in',
  'dm',
  'dm-including',
  'near',
  'id',
  'with',
  'search',
]);

/** Splits on spaces outside double quotes; quotes group (`topic:"two words"`) and are dropped. */
function tokens(query: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of query) {
    if (c === '"') quoted = !quoted;
    else if (/\s/.test(c) && !quoted) {
      if (current) out.push(current);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

export interface ParseContext {
  channelId?(name: string): number | undefined;
  userId?(emailOrName: string): number | undefined;
}

export function parseSearch(query: string, context: ParseContext = {}): Term[] {
  const terms: Term[] = [];
  const words: string[] = [];
  for (const token of tokens(query)) {
    const colon = token.indexOf(':');
    let operator = colon > 0 ? token.slice(0, colon).toLowerCase() : '';
    const negated = operator.startsWith('-');
    if (negated) operator = operator.slice(1);
    operator = canonicalOperator(operator);
    const text = colon > 0 ? token.slice(colon + 1) : '';
    if (!OPERATORS.has(operator) || text === '') {
      words.push(token);
      continue;
    }
    let operand: Term['operand'] = text;
    if (operator === 'channel') operand = context.channelId?.(text) ?? text;
    else if (operator === 'dm' || operator === 'dm-including') {
      const ids = text.split(',').map((p) => (/^\d+$/.test(p) ? Number(p) : context.userId?.(p)));
      operand = ids.every((id): id is number => id !== undefined) ? ids : text;
    } else if (operator === 'sender') operand = /^\d+$/.test(text) ? Number(text) : text;
    else if (operator === 'near' || operator === 'id' || operator === 'with')
      operand = /^\d+$/.test(text) ? Number(text) : text;
    else if (operator === 'search') {
      words.push(text);
      continue;
    }
    const term: Term = { operator, operand };
    if (negated) term.negated = true;
    terms.push(term);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

/** The search box's text for a narrow (the inverse of parseSearch, with names where known). */
export function unparseSearch(
  terms: readonly Term[],
  names: { channelName?(id: number): string | undefined; userEmail?(id: number): string | undefined } = {},
): string {
  const quote = (text: string) => (/\s/.test(text) ? `"${text}"` : text);
  return terms
    .map((t) => {
      if (t.operator === 'search') return String(t.operand);
      let operand: string;
      if (t.operator === 'channel' && typeof t.operand === 'number')
        operand = names.channelName?.(t.operand) ?? String(t.operand);
      else if (Array.isArray(t.operand)) operand = t.operand.map((id) => names.userEmail?.(id) ?? String(id)).join(',');
      else if (t.operator === 'sender' && typeof t.operand === 'number')
        operand = names.userEmail?.(t.operand) ?? String(t.operand);
      else operand = String(t.operand);
      return `${t.negated ? '-' : ''}${t.operator}:${quote(operand)}`;
    })
    .join(' ');
}
