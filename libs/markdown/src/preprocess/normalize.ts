import { stripPlaceholderChars } from '../stash.js';

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(4 - (out.length % 4)) : char;
  return out;
}

/** Zulip's whitespace normalization: LF line ends, tabs to 4-column stops, blank lines emptied. */
export function normalizeLines(text: string): string[] {
  return stripPlaceholderChars(text)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const expanded = expandTabs(line);
      return /^ +$/.test(expanded) ? '' : expanded;
    });
}
