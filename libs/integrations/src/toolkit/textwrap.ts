/** Python's textwrap, as html2text (html2text.ts) and other views wrap paragraphs. */

/** Python's textwrap.wrap(text, width, break_long_words=False, subsequent_indent=indent). */
export function textWrap(text: string, width: number, indent = ''): string[] {
  const normalized = text.replace(/\t/g, '        ').replace(/[\n\v\f\r]/g, ' ');
  const chunks = normalized
    .split(/( +)/)
    .filter((c) => c !== '')
    .flatMap((chunk) =>
      // A hyphenated word may break after its hyphen (textwrap's break_on_hyphens).
      chunk.startsWith(' ') ? [chunk] : chunk.split(/(?<=\p{L}{2}-)(?=\p{L})/u),
    );
  const lengthOf = (s: string) => Array.from(s).length;
  const lines: string[] = [];
  chunks.reverse();
  while (chunks.length > 0) {
    const line: string[] = [];
    let length = 0;
    const lineIndent = lines.length > 0 ? indent : '';
    const room = width - lengthOf(lineIndent);
    if (chunks.at(-1)!.trim() === '' && lines.length > 0) chunks.pop();
    while (chunks.length > 0) {
      const size = lengthOf(chunks.at(-1)!);
      if (length + size > room) break;
      line.push(chunks.pop()!);
      length += size;
    }
    if (chunks.length > 0 && lengthOf(chunks.at(-1)!) > room && line.length === 0) line.push(chunks.pop()!);
    if (line.length > 0 && line.at(-1)!.trim() === '') line.pop();
    if (line.length > 0) lines.push(lineIndent + line.join(''));
  }
  return lines;
}
