import { highlightHtmlDifferences } from '../src/rendering/html-diff';

const del = (t: string) => `<span class="highlight_text_deleted">${t}</span>`;
const ins = (t: string) => `<span class="highlight_text_inserted">${t}</span>`;

describe("content_html_diff: an edit's changes marked word by word in the newer rendering", () => {
  it('returns an unchanged rendering as it is', () => {
    expect(highlightHtmlDifferences('<p>same</p>', '<p>same</p>')).toBe('<p>same</p>');
  });

  it('marks a replaced word, an added word and a removed word, leaving the rest alone', () => {
    expect(highlightHtmlDifferences('<p>the quick fox</p>', '<p>the slow fox</p>')).toBe(
      `<p>the ${del('quick')}${ins('slow')} fox</p>`,
    );
    expect(highlightHtmlDifferences('<p>the fox</p>', '<p>the red fox</p>')).toBe(`<p>the ${ins('red ')}fox</p>`);
    expect(highlightHtmlDifferences('<p>the red fox</p>', '<p>the fox</p>')).toBe(`<p>the ${del('red ')}fox</p>`);
  });

  it("keeps the newer version's markup: new tags stay, tags the edit removed go, their words shown removed", () => {
    expect(highlightHtmlDifferences('<p>a plain word</p>', '<p>a <strong>bold</strong> word</p>')).toBe(
      `<p>a ${del('plain')}<strong>${ins('bold')}</strong> word</p>`,
    );
    expect(highlightHtmlDifferences('<p>a <em>loud</em> word</p>', '<p>a word</p>')).toBe(
      `<p>a ${del('loud ')}word</p>`,
    );
  });

  it('marks a whole new paragraph and keeps every tag balanced', () => {
    const out = highlightHtmlDifferences('<p>one</p>', '<p>one</p>\n<p>two</p>');
    expect(out).toBe(`<p>one</p>${ins('\n')}<p>${ins('two')}</p>`);
    const opened = (out.match(/<(?!\/)[a-z]/g) ?? []).length;
    const closed = (out.match(/<\//g) ?? []).length;
    expect(opened).toBe(closed);
  });

  it('marks a very long rewrite as removed and added as a whole, without building a huge table', () => {
    const words = (prefix: string) => Array.from({ length: 1500 }, (_, i) => `${prefix}${i}`).join(' ');
    expect(highlightHtmlDifferences(`<p>${words('a')}</p>`, `<p>${words('b')}</p>`)).toBe(
      `<p>${del(words('a'))}${ins(words('b'))}</p>`,
    );
  });
});
