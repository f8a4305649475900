import {
  convertHtmlToMarkdown,
  fnmatch,
  htmlUnescape,
  parseXml,
  pyCompare,
  pyFixed,
  pyFormat,
  pySorted,
  pyTruthy,
  strftime,
  stripTags,
  textWrap,
} from '../src/index.js';

describe("the toolkit's Python equivalents", () => {
  it('formats as str.format does: None, True, specs, positional and named fields, {{ }}', () => {
    expect(pyFormat('{user} set {what} to {value}', { user: 'Ada', what: 'x', value: null })).toBe('Ada set x to None');
    expect(pyFormat('{} and {}: {!r}', [true, 1.5, 'it'])).toBe("True and 1.5: 'it'");
    expect(pyFormat('${:.2f} {:,} {:>5}|{:<3}|', [5.5, 1234567, 'ab', 'c'])).toBe('$5.50 1,234,567    ab|c  |');
    expect(pyFormat('{{literal}} {a[b]}', { a: { b: 'deep' } })).toBe('{literal} deep');
    expect(() => pyFormat('{missing}', {})).toThrow(/KeyError/);
  });

  it("rounds ties to even as Python's format does", () => {
    expect(pyFixed(2.5, 0)).toBe('2');
    expect(pyFixed(3.5, 0)).toBe('4');
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(1.005, 2)).toBe('1.00'); // 1.005 is 1.00499… as a double
    expect(pyFixed(-1.5, 0)).toBe('-2');
  });

  it('has Python’s truthiness and str ordering', () => {
    expect([null, 0, '', [], {}, false].map(pyTruthy)).toEqual([false, false, false, false, false, false]);
    expect([1, 'a', [0], { a: 1 }].map(pyTruthy)).toEqual([true, true, true, true]);
    expect(pySorted(['b', 'B', 'a\n', '😀', '\uffff'])).toEqual(['B', 'a\n', 'b', '\uffff', '😀']);
    expect(pyCompare('ab', 'a')).toBeGreaterThan(0);
    expect(fnmatch('story_update_state', 'story_*')).toBe(true);
  });

  it('formats dates as strftime does, in UTC', () => {
    const date = new Date(Date.UTC(2019, 10, 1, 12, 0, 5));
    expect(strftime(date, '%b %d, %Y, %H:%M:%S %Z')).toBe('Nov 01, 2019, 12:00:05 UTC');
    expect(strftime(date, '%A %B %j %I%p %%')).toBe('Friday November 305 12PM %');
  });
});

describe("the toolkit's readers of HTML and XML", () => {
  it('strips tags and decodes references', () => {
    expect(stripTags('<p>a &amp; <b>b</b><!-- x --></p>&#8212;&nbsp;&unknown;')).toBe('a & b—\u00a0&unknown;');
    expect(htmlUnescape('&lt;&#x41;&gt;')).toBe('<A>');
  });

  it('turns HTML into Markdown as html2text does: wrapped at 78 columns, links, emphasis, lists, breaks', () => {
    const words = 'word '.repeat(20).trim();
    expect(convertHtmlToMarkdown(`<p>${words}</p>`)).toBe(`${'word '.repeat(15).trim()}\n${'word '.repeat(5).trim()}`);
    expect(convertHtmlToMarkdown('<p>See <a href="https://a.test/x">the <em>docs</em></a>.<br>Thanks</p>')).toBe(
      'See [the _docs_](https://a.test/x).  \nThanks',
    );
    expect(convertHtmlToMarkdown('<ul><li>one</li><li>two</li></ul>')).toBe('* one\n  * two'); // the first item's indent stripped
    expect(convertHtmlToMarkdown('<img src="https://cdn.test/a/pic.png?v=2">')).toBe(
      '[pic.png](https://cdn.test/a/pic.png)',
    );
    expect(convertHtmlToMarkdown('<p>1. not a list</p>')).toBe('1\\. not a list');
  });

  it('wraps as textwrap does, never breaking a long word', () => {
    expect(textWrap('a '.repeat(3) + 'x'.repeat(10), 8)).toEqual(['a a a', 'xxxxxxxxxx']);
    expect(textWrap('   ', 10)).toEqual([]);
  });

  it('reads XML as ElementTree does', () => {
    const root = parseXml('<?xml version="1.0"?><a x="1"><b>one &amp; two</b><c/><b>again</b></a>');
    expect(root.tag).toBe('a');
    expect(root.attributes).toEqual({ x: '1' });
    expect(root.find('b')?.text).toBe('one & two');
    expect(root.find('c')?.text).toBeNull();
    expect(root.findAll('b').map((b) => b.text)).toEqual(['one & two', 'again']);
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow();
  });
});
