/**
 * The compose box's formatting (issue 45), as Zulip's compose toolbar and its shortcuts: each format wraps the
 * selection in its Markdown (or, with nothing selected, inserts it around a placeholder, which is then selected to be
 * typed over), and a second press on what it wrapped takes it off again. Pure: a text and its selection in, the new
 * text and selection out.
 */

export type Format = 'bold' | 'italic' | 'link' | 'code' | 'quote' | 'bulleted' | 'numbered';

/** A text and its selection [start, end). */
export interface Edit {
  text: string;
  start: number;
  end: number;
}

const INLINE = { bold: ['**', 'bold text'], italic: ['*', 'italic text'] } as const;

/** How many of `ch` end `s` (or begin it, `atStart`). */
function run(s: string, ch: string, atStart: boolean): number {
  let n = 0;
  while (n < s.length && s[atStart ? n : s.length - 1 - n] === ch) n += 1;
  return n;
}

/**
 * Whether `marker` closes in on both sides: `**` (bold) where two or more stars are on each side, `*` (italic) where
 * an odd number are (`***` is bold and italic), a backtick for code.
 */
function wrapped(left: string, right: string, marker: string): boolean {
  return closes(Math.min(run(left, marker[0], false), run(right, marker[0], true)), marker);
}

/** Whether `k` of the marker's character on each side make the marker. */
function closes(k: number, marker: string): boolean {
  if (marker === '**') return k >= 2;
  if (marker === '*') return k % 2 === 1;
  return k >= marker.length;
}

/** `marker` around [start, end), toggled: already there (just outside the selection or inside it), it is taken off. */
function wrap(text: string, start: number, end: number, marker: string, placeholder: string): Edit {
  const m = marker.length;
  const selected = text.slice(start, end);
  const before = text.slice(0, start);
  const after = text.slice(end);
  if (wrapped(before, after, marker))
    return { text: before.slice(0, -m) + selected + after.slice(m), start: start - m, end: end - m };
  if (selected.length > 2 * m && wrappedInside(selected, marker)) {
    const inner = selected.slice(m, -m);
    return { text: before + inner + after, start, end: start + inner.length };
  }
  const inner = selected || placeholder;
  return { text: before + marker + inner + marker + after, start: start + m, end: start + m + inner.length };
}

/** Whether a selection begins and ends with `marker` (its own runs of the marker's character, read from inside). */
function wrappedInside(selected: string, marker: string): boolean {
  return closes(Math.min(run(selected, marker[0], true), run(selected, marker[0], false)), marker);
}

const URL_LIKE = /^(https?:\/\/|www\.)\S+$/i;

/** `[text](url)`: a selected address becomes the link's url (its text selected to type), other text its text. */
function link(text: string, start: number, end: number): Edit {
  const selected = text.slice(start, end).trim() === '' ? '' : text.slice(start, end);
  const before = text.slice(0, start);
  const after = text.slice(end);
  if (URL_LIKE.test(selected)) {
    const label = 'link text';
    return { text: `${before}[${label}](${selected})${after}`, start: start + 1, end: start + 1 + label.length };
  }
  const label = selected || 'link text';
  const at = start + 1 + label.length + 2;
  return {
    text: `${before}[${label}](url)${after}`,
    start: selected ? at : start + 1,
    end: selected ? at + 3 : start + 1 + label.length,
  };
}

/** The selection grown to whole lines: [line start, line end). */
function lines(text: string, start: number, end: number): [number, number] {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const back = end > start && text[end - 1] === '\n' ? end - 1 : end;
  const to = text.indexOf('\n', back);
  return [from, to === -1 ? text.length : to];
}

/** A block (a fence around the selection) on lines of its own. */
function block(text: string, start: number, end: number, open: string, placeholder: string): Edit {
  const selected = text.slice(start, end).replace(/\n$/, '');
  const before = text.slice(0, start);
  const after = text.slice(start + text.slice(start, end).length);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  const inner = selected || placeholder;
  const head = `${lead}${open}\n`;
  return {
    text: `${before}${head}${inner}\n\`\`\`${trail}${after}`,
    start: start + head.length,
    end: start + head.length + inner.length,
  };
}

const BULLET = /^- /;
const NUMBER = /^\d+\. /;

/** A list: each selected line gets its marker, or, when every one has it already, loses it. */
function list(text: string, start: number, end: number, numbered: boolean): Edit {
  const [from, to] = lines(text, start, end);
  const rows = text.slice(from, to).split('\n');
  const marker = numbered ? NUMBER : BULLET;
  const listed = rows.every((r) => marker.test(r));
  const next = listed
    ? rows.map((r) => r.replace(marker, ''))
    : rows.map((r, i) => `${numbered ? `${i + 1}. ` : '- '}${r.replace(numbered ? BULLET : NUMBER, '')}`);
  const body = next.join('\n');
  const result = text.slice(0, from) + body + text.slice(to);
  // One empty line: the cursor after its new marker, to type the first item.
  if (start === end && rows.length === 1) {
    const cursor = Math.max(from, start + (body.length - (to - from)));
    return { text: result, start: cursor, end: cursor };
  }
  return { text: result, start: from, end: from + body.length };
}

/** The text after `format` is applied to the selection [start, end) of `text`. */
export function applyFormat(text: string, start: number, end: number, format: Format): Edit {
  const a = Math.max(0, Math.min(start, end, text.length));
  const b = Math.min(text.length, Math.max(start, end));
  switch (format) {
    case 'bold':
    case 'italic':
      return wrap(text, a, b, INLINE[format][0], INLINE[format][1]);
    case 'link':
      return link(text, a, b);
    case 'code':
      // A selection over several lines is a code block; within one line, inline code.
      return text.slice(a, b).replace(/\n$/, '').includes('\n')
        ? block(text, a, b, '```', 'code')
        : wrap(text, a, b, '`', 'code');
    case 'quote':
      return block(text, a, b, '```quote', 'quote');
    case 'bulleted':
    case 'numbered':
      return list(text, a, b, format === 'numbered');
  }
}

/** The format a key press in the message field asks for, as Zulip's: Ctrl (⌘)+B, Ctrl+I, Ctrl+Shift+L. */
export function formatKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): Format | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (!event.shiftKey && key === 'b') return 'bold';
  if (!event.shiftKey && key === 'i') return 'italic';
  if (event.shiftKey && key === 'l') return 'link';
  return null;
}
