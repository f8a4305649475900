/**
 * What Zulip's views do to HTML that providers send: Python's html.unescape of character references, and the
 * text of a fragment with its tags dropped (the MLStripper of Intercom's and others' views: HTMLParser's
 * handle_data with convert_charrefs on).
 */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  deg: '°',
  times: '×',
  divide: '÷',
};

/** The replacements html.unescape makes for numeric references outside Unicode's valid scalars. */
function codePoint(n: number): string {
  if (n === 0 || (n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff) return '\ufffd';
  return String.fromCodePoint(n);
}

/** Python's html.unescape (the common named references, and every numeric one). */
export function htmlUnescape(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+;?|#\d+;?|[A-Za-z][A-Za-z0-9]*;?)/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      const n = parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10);
      return codePoint(n);
    }
    const name = ref.endsWith(';') ? ref.slice(0, -1) : ref;
    const value = NAMED[name];
    return value === undefined ? whole : value;
  });
}

/** The text of an HTML fragment: tags and comments dropped, character references decoded. */
export function stripTags(html: string): string {
  const withoutComments = html.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const text = withoutComments.replace(/<\/?[A-Za-z][^>]*>|<![^>]*>|<\?[^>]*>/g, '');
  return htmlUnescape(text);
}
