/**
 * What Zulip's server gets from Python for free and JavaScript does differently: str() of any JSON value (None,
 * True, 1.0), repr() of dicts and lists, str.title(), str.capitalize() and string.punctuation. Templates that format
 * a value the provider may send as null or a number use these, so the text is Zulip's byte for byte.
 */

/** Python's string.punctuation. */
export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** Whether a text ends with one of Python's punctuation characters (Zulip's `title[-1] not in string.punctuation`). */
export function endsWithPunctuation(text: string): boolean {
  return text.length > 0 && PUNCTUATION.includes(text[text.length - 1]!);
}

/** Python's repr() of a float, for numbers JavaScript prints otherwise (1e16, 1e-7). */
function pyFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const text = String(value);
  const exp = /^(-?)(\d(?:\.\d+)?)e([+-])(\d+)$/.exec(text);
  if (exp) return `${exp[1]}${exp[2]}e${exp[3]}${exp[4]!.padStart(2, '0')}`;
  return text;
}

/** Python's str() of a JSON value (what `"{}".format(value)` prints). */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pyFloat(value);
  return pyRepr(value);
}

const hex2 = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;

/**
 * Python's repr() of a str (`'…'`): printable characters as they are; tab, newline and return by name; the other
 * controls, DEL to NO-BREAK SPACE and the soft hyphen (not str.isprintable()) as `\\xNN`.
 */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) out += hex2(code);
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's repr() of bytes (`b'…'`), as Zulip writes a response's body into a bot owner's notice. */
export function pyBytesRepr(body: Uint8Array): string {
  const quote = body.includes(0x27) && !body.includes(0x22) ? '"' : "'";
  let out = '';
  for (const byte of body) {
    const ch = String.fromCharCode(byte);
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (byte < 0x20 || byte >= 0x7f) out += hex2(byte);
    else out += ch;
  }
  return `b${quote}${out}${quote}`;
}

/** Python's repr() of a JSON value (dicts as `{'key': 'value'}`, lists, None/True/False). */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return pyStr(value);
}

/** Python's str.title(): every run of letters starts upper-case, the rest lower-case. */
export function pyTitle(text: string): string {
  let out = '';
  let previousCased = false;
  for (const ch of text) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (previousCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    previousCased = cased;
  }
  return out;
}

/** Python's str.capitalize(): the first character upper-case, the rest lower-case. */
export function pyCapitalize(text: string): string {
  if (text.length === 0) return text;
  const [first, ...rest] = Array.from(text);
  return first!.toUpperCase() + rest.join('').toLowerCase();
}
