import { renderMessage } from '../src/index.js';

const html = (content: string) => renderMessage(content).html;

describe('paragraphs and text', () => {
  it('turns every newline into <br>', () => {
    expect(html('one\ntwo')).toBe('<p>one<br>\ntwo</p>');
  });

  it('has *emphasis*, **strong**, ***both*** and ~~strikethrough~~, but no _underscore_ forms', () => {
    expect(html('*a* **b** ***c*** ~~d~~ _e_ __f__')).toBe(
      '<p><em>a</em> <strong>b</strong> <strong><em>c</em></strong> <del>d</del> _e_ __f__</p>',
    );
  });

  it('lets emphasis contain strong and code, but not cross a code span', () => {
    expect(html('*a **b** c*')).toBe('<p><em>a <strong>b</strong> c</em></p>');
    expect(html('**a `b** c`')).toBe('<p>**a <code>b** c</code></p>');
  });

  it('keeps code spans verbatim', () => {
    expect(html('` a ` ``b`c``')).toBe('<p><code> a </code> <code>b`c</code></p>');
  });

  it('supports headings with a space after the hashes only', () => {
    expect(html('## Title\n#hashtag')).toBe('<h2>Title</h2>\n<p>#hashtag</p>');
  });
});

describe('lists', () => {
  it('lets a list hang directly off a paragraph and mixes bullet characters', () => {
    expect(html('Items:\n* a\n- b\n+ c')).toBe('<p>Items:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n<li>c</li>\n</ul>');
  });

  it('nests with two spaces and keeps start numbers', () => {
    expect(html('3. a\n  1. b\n4. c')).toBe('<ol start="3">\n<li>a<ol>\n<li>b</li>\n</ol>\n</li>\n<li>c</li>\n</ol>');
  });
});

describe('quotes', () => {
  it('renders > quotes and ```quote blocks', () => {
    expect(html('> a\nb\n\n```quote\nc\n```')).toBe(
      '<blockquote>\n<p>a<br>\nb</p>\n</blockquote>\n<blockquote>\n<p>c</p>\n</blockquote>',
    );
  });

  it('does not quote a lone >', () => {
    expect(html('>')).toBe('<p>&gt;</p>');
  });
});

describe('code blocks', () => {
  it('renders fences with the canonical language name', () => {
    expect(html('```js\nlet x = "<y>";\n```')).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let x = &quot;&lt;y&gt;&quot;;\n</code></pre></div>',
    );
  });

  it('keeps unknown languages as given and uses the realm default for bare fences', () => {
    expect(html('~~~ mylang\nx\n~~~')).toContain('data-code-language="mylang"');
    expect(renderMessage('```\nx\n```', { defaultCodeBlockLanguage: 'python' }).html).toContain(
      'data-code-language="Python"',
    );
  });

  it('runs an unclosed fence to the end of the message', () => {
    expect(html('```\nopen')).toBe('<div class="codehilite"><pre><span></span><code>open\n</code></pre></div>');
  });
});

describe('spoilers', () => {
  it('renders a header and Markdown content', () => {
    expect(html('```spoiler **Plot**\nThe butler did it.\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p><strong>Plot</strong></p>\n' +
        '</div><div class="spoiler-content" aria-hidden="true">\n<p>The butler did it.</p>\n</div></div>',
    );
  });
});

describe('tables', () => {
  it('renders aligned columns the way Zulip does', () => {
    expect(html('| a | b |\n|:--|--:|\n| 1 | 2 |')).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align: left;">a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align: left;">1</td>\n<td style="text-align: right;">2</td>\n</tr>\n</tbody>\n</table>',
    );
  });
});

describe('math', () => {
  it('renders inline $$tex$$ and ```math blocks with KaTeX', () => {
    expect(html('$$x^2$$')).toMatch(/^<p><span class="katex">.*<\/span><\/p>$/s);
    expect(html('```math\nx^2\n```')).toMatch(/^<p><span class="katex-display">.*<\/span><\/p>$/s);
  });

  it('shows invalid TeX as escaped source', () => {
    expect(html('$$\\frac{$$')).toBe('<p><span class="tex-error">$$\\frac{$$</span></p>');
  });

  it('ignores single dollars and money amounts', () => {
    expect(html('costs $5 or $10')).toBe('<p>costs $5 or $10</p>');
  });
});

describe('/me messages and timestamps', () => {
  it('flags /me messages and renders their text as is', () => {
    expect(renderMessage('/me is away')).toMatchObject({ html: '<p>/me is away</p>', isMeMessage: true });
    expect(renderMessage('hi /me').isMeMessage).toBe(false);
  });

  it('renders <time:...> in UTC, or an error for unreadable times', () => {
    expect(html('<time:2024-03-01T10:00:00+01:00>')).toBe(
      '<p><time datetime="2024-03-01T09:00:00Z">2024-03-01T10:00:00+01:00</time></p>',
    );
    expect(html('<time:not a date>')).toBe(
      '<p><span class="timestamp-error">Invalid time format: not a date</span></p>',
    );
  });
});
