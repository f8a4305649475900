import { applyFormat, formatKey, type Format } from '../src/compose/format';

/** `text` with its selection marked by `[` and `]` (`|` for an empty one), formatted, shown the same way. */
function formatted(marked: string, format: Format): string {
  const cursor = marked.indexOf('|');
  const start = cursor >= 0 ? cursor : marked.indexOf('[');
  const end = cursor >= 0 ? cursor : marked.indexOf(']') - 1;
  const text = marked.replace(/[[\]|]/g, '');
  const edit = applyFormat(text, start, end, format);
  return edit.start === edit.end
    ? `${edit.text.slice(0, edit.start)}|${edit.text.slice(edit.start)}`
    : `${edit.text.slice(0, edit.start)}[${edit.text.slice(edit.start, edit.end)}]${edit.text.slice(edit.end)}`;
}

describe('compose formatting, as Zulip’s toolbar', () => {
  it('wraps the selection in bold or italic, and unwraps it on a second press', () => {
    expect(formatted('say [hello] now', 'bold')).toBe('say **[hello]** now');
    expect(formatted('say **[hello]** now', 'bold')).toBe('say [hello] now');
    expect(formatted('say [**hello**] now', 'bold')).toBe('say [hello] now');
    expect(formatted('say [hello] now', 'italic')).toBe('say *[hello]* now');
    expect(formatted('say *[hello]* now', 'italic')).toBe('say [hello] now');
    // Bold's two stars are not italic's one: italic on bold text makes it both, and undoes only its own.
    expect(formatted('**[hello]**', 'italic')).toBe('***[hello]***');
    expect(formatted('***[hello]***', 'italic')).toBe('**[hello]**');
    expect(formatted('***[hello]***', 'bold')).toBe('*[hello]*');
  });

  it('inserts a placeholder, selected to type over, when nothing is selected', () => {
    expect(formatted('a |', 'bold')).toBe('a **[bold text]**');
    expect(formatted('|', 'italic')).toBe('*[italic text]*');
    expect(formatted('|', 'code')).toBe('`[code]`');
  });

  it('makes a link of the selected text, or of a selected address', () => {
    expect(formatted('see [the docs] here', 'link')).toBe('see [the docs]([url]) here');
    expect(formatted('see [https://example.com/a] here', 'link')).toBe('see [[link text]](https://example.com/a) here');
    expect(formatted('see |', 'link')).toBe('see [[link text]](url)');
  });

  it('makes inline code of one line and a code block of several, on lines of their own', () => {
    expect(formatted('run [make test] first', 'code')).toBe('run `[make test]` first');
    expect(formatted('run `[make test]` first', 'code')).toBe('run [make test] first');
    expect(formatted('Do:\n[a\nb]\nthen', 'code')).toBe('Do:\n```\n[a\nb]\n```\nthen');
    expect(formatted('x [a\nb]', 'code')).toBe('x \n```\n[a\nb]\n```');
  });

  it('quotes the selection in a quote block', () => {
    expect(formatted('[To be or not]', 'quote')).toBe('```quote\n[To be or not]\n```');
    expect(formatted('He said [this] today', 'quote')).toBe('He said \n```quote\n[this]\n```\n today');
    expect(formatted('|', 'quote')).toBe('```quote\n[quote]\n```');
  });

  it('makes the selected lines a bulleted or numbered list, and takes the list off again', () => {
    expect(formatted('Buy:\n[milk\nbread]', 'bulleted')).toBe('Buy:\n[- milk\n- bread]');
    expect(formatted('Buy:\n[- milk\n- bread]', 'bulleted')).toBe('Buy:\n[milk\nbread]');
    // Part of a line counts as the line.
    expect(formatted('Buy:\nmi[lk\nbr]ead', 'numbered')).toBe('Buy:\n[1. milk\n2. bread]');
    expect(formatted('[1. milk\n2. bread]', 'numbered')).toBe('[milk\nbread]');
    // A bulleted list made numbered.
    expect(formatted('[- milk\n- bread]', 'numbered')).toBe('[1. milk\n2. bread]');
    // An empty line: its marker, the cursor after it.
    expect(formatted('Buy:\n|', 'bulleted')).toBe('Buy:\n- |');
    expect(formatted('|', 'numbered')).toBe('1. |');
  });

  it('reads Zulip’s keys: Ctrl+B, Ctrl+I, Ctrl+Shift+L (⌘ on a Mac)', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) =>
      formatKey({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(key('b', { ctrlKey: true })).toBe('bold');
    expect(key('i', { metaKey: true })).toBe('italic');
    expect(key('L', { ctrlKey: true, shiftKey: true })).toBe('link');
    expect(key('l', { ctrlKey: true })).toBeNull();
    expect(key('b')).toBeNull();
    expect(key('b', { ctrlKey: true, altKey: true })).toBeNull();
  });
});
