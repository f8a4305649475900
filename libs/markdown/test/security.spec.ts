import fc from 'fast-check';
import { renderMessage, type RenderContext } from '../src/index.js';

// Every rendered message is shown to other users: no input may smuggle in markup, scripts or
// script-capable URLs, whatever syntax it hides behind.

const context: RenderContext = {
  users: [{ id: 1, fullName: '<img src=x onerror=alert(1)>' }],
  groups: [{ id: 2, name: '"><script>alert(1)</script>' }],
  channels: [{ id: 3, name: '<b onmouseover=alert(1)>' }],
  realmEmoji: { evil: { id: '4', sourceUrl: '" onerror="alert(1)' } },
};

const NASTY = [
  '<script>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](https://ok.example "<script>alert(1)</script>")',
  '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
  '[<script>alert(1)</script>](https://ok.example)',
  'javascript:alert(1)',
  'https://ok.example/"><script>alert(1)</script>',
  '`<script>alert(1)</script>`',
  '```\n</code></pre><script>alert(1)</script>\n```',
  '```<script>\nx\n```',
  '```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```',
  '```quote\n<script>alert(1)</script>\n```',
  '$$\\href{javascript:alert(1)}{x}$$',
  '$$<script>alert(1)</script>$$',
  '```math\n\\url{javascript:alert(1)}\n```',
  '<time:<script>alert(1)</script>>',
  '@**<img src=x onerror=alert(1)>** @*"><script>alert(1)</script>* #**<b onmouseover=alert(1)>**',
  ':evil:',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '\u0002stash:0\u0003',
  '> <script>alert(1)</script>\n> [x](javascript:alert(1))',
  '* <script>alert(1)</script>\n  * [x](javascript:alert(1))',
  '| <script> |\n|---|\n| <img src=x onerror=alert(1)> |',
];

interface Element {
  tag: string;
  attrs: [string, string][];
}

// Our HTML always double-quotes attribute values and escapes `"` inside them, so this reads it exactly.
function elements(html: string): Element[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
    tag: m[1]!.toLowerCase(),
    attrs: [...m[2]!.matchAll(/([^\s=>]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), decode(a[2] ?? '')]),
  }));
}

function decode(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every `<` in the output starts one of the elements found, so no markup hides from the checks. */
function countTagOpenings(html: string): number {
  return (html.match(/<[a-zA-Z]/g) ?? []).length;
}

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'a',
  'span',
  'code',
  'pre',
  'div',
  'em',
  'strong',
  'del',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
  'time',
  // KaTeX's MathML
  'math',
  'semantics',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'mspace',
  'annotation',
  'menclose',
  'mstyle',
  'mpadded',
  'mover',
  'munder',
  'munderover',
  'mroot',
  'msqrt',
  'mtable',
  'mtr',
  'mtd',
  'svg',
  'path',
]);

/** No script element, no event-handler attribute, no script-capable URL, only known elements. */
function expectInert(html: string): void {
  expect(html.toLowerCase()).not.toContain('<script');
  expect(html).not.toContain('\u0002');
  const found = elements(html);
  expect(found.length).toBe(countTagOpenings(html));
  for (const { tag, attrs } of found) {
    expect(ALLOWED_TAGS).toContain(tag);
    for (const [name, value] of attrs) {
      expect(name).not.toMatch(/^on/);
      if (name === 'href' || name === 'src') expect(value.trim()).not.toMatch(/^(javascript|vbscript|data):/i);
    }
  }
}

/** Pieces of Markdown syntax that change how their neighbours are read. */
const SYNTAX = [
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '"',
  "'",
  '`',
  '```',
  '$$',
  '*',
  '_',
  '~~',
  '|',
  '\n',
  '\n\n',
  '> ',
  '* ',
  '1. ',
  '# ',
  '@**',
  '**',
  '#**',
  ':',
  '!',
  '&',
  '&#',
  ';',
  '\\',
  ' ',
  '\t',
  'http://',
  'https://ok.example/',
  'mailto:',
  'javascript',
  'JaVaScRiPt:',
  'data:',
  '<time:',
  '```math\n',
  '```spoiler ',
  '```quote\n',
  '\\href{',
  '\\url{',
  '}',
  'onerror=',
  'src=',
  'href=',
  '=',
  'alert(1)',
  '<img ',
  '<a ',
  '<script>',
  '</script>',
  '<svg/onload=',
];

describe('security', () => {
  it.each(NASTY)('renders %j without active content', (input) => {
    expectInert(renderMessage(input, context).html);
  });

  it('renders any mix of Markdown syntax, markup and script URLs without active content', () => {
    const fragment = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...SYNTAX) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 24 }), (parts) => {
        expectInert(renderMessage(parts.join(''), context).html);
      }),
      { numRuns: 2000, seed: 20261122 },
    );
  });

  it('escapes raw HTML instead of passing it through', () => {
    expect(renderMessage('<b>bold</b> & <i>').html).toBe('<p>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;</p>');
  });

  it('leaves javascript: links as plain text', () => {
    expect(renderMessage('[click](javascript:alert(1))').html).toBe('<p>[click](javascript:alert(1))</p>');
  });

  it('escapes names and URLs coming from the database', () => {
    const { html } = renderMessage('@**<img src=x onerror=alert(1)>** :evil:', context);
    expect(html).toContain('@&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('src="http://&quot;%20onerror=&quot;alert(1)"');
  });

  it('cannot forge pre-rendered HTML placeholders', () => {
    expect(renderMessage('```\n<b>x</b>\n```\n\n\u0002stash:0\u0003').html).toBe(
      '<div class="codehilite"><pre><span></span><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre></div>\n<p>stash:0</p>',
    );
  });

  it('stays fast on pathological input', () => {
    const inputs = [
      '*'.repeat(20000),
      '['.repeat(5000) + ']'.repeat(5000),
      `http://a.com/${'('.repeat(3000)}`,
      '`'.repeat(10000),
      '> '.repeat(2000) + 'x',
      `${'a.'.repeat(5000)}com`,
      '@**'.repeat(3000),
      '$$'.repeat(3000),
      '~~'.repeat(5000),
    ];
    const start = Date.now();
    for (const input of inputs) renderMessage(input, context);
    expect(Date.now() - start).toBeLessThan(5000);
  });
});
