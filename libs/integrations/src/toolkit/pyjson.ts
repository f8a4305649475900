/**
 * More of what Python does to text that JavaScript does differently, for the generic integrations: json.dumps with
 * its defaults (ASCII only, `indent`), str.strip()'s notion of whitespace, and the `\w` of Python 3's Unicode
 * regular expressions (JavaScript's `\w` is ASCII only).
 */

/** Python's `\w` in a str pattern: letters, digits (any script) and `_`. For regexes built with the `u` flag. */
export const PY_WORD = '[\\p{L}\\p{N}_]';
/** Python's `[^\w]`, for regexes built with the `u` flag. */
export const PY_NON_WORD = '[^\\p{L}\\p{N}_]';

// str.isspace(): Unicode White_Space plus the ASCII separators \x1c–\x1f; not U+FEFF, which JavaScript's trim strips.
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PY_SPACE}]+`, 'u');
const TRAILING = new RegExp(`[${PY_SPACE}]+$`, 'u');

/** Python's str.strip() without arguments. */
export function pyStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's json.dumps string literal (ensure_ascii): every character outside printable ASCII as \uXXXX. */
function dumpString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function dumpNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return JSON.stringify(value);
}

/**
 * Python's `json.dumps(value, indent=indent)` (separators `,` and `: ` when indented, `, ` and `: ` when not), with
 * ensure_ascii. A float without a fraction prints as an integer (JavaScript's JSON has no 1.0).
 */
export function pyJsonDumps(value: unknown, indent: number | null = null): string {
  const dump = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'number') return dumpNumber(v);
    if (typeof v === 'string') return dumpString(v);
    const items: string[] = Array.isArray(v)
      ? v.map((item) => dump(item, depth + 1))
      : Object.entries(v as Record<string, unknown>).map(([k, item]) => `${dumpString(k)}: ${dump(item, depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (items.length === 0) return `${open}${close}`;
    if (indent === null) return `${open}${items.join(', ')}${close}`;
    const inner = '\n' + ' '.repeat(indent * (depth + 1));
    const outer = '\n' + ' '.repeat(indent * depth);
    return `${open}${inner}${items.join(`,${inner}`)}${outer}${close}`;
  };
  return dump(value, 0);
}
