import { renderMessage, sanitizeUrl } from '../src/index.js';

const REALM = 'https://chat.example.com';
const render = (content: string) => renderMessage(content, { realmUrl: REALM });

describe('links', () => {
  it('renders [text](url) with the label as written (Zulip does not format link text)', () => {
    expect(render('[**docs** :+1:](https://example.com/a?b=1&c=2)').html).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2">**docs** :+1:</a></p>',
    );
  });

  it('keeps a title and shows the URL for an empty label', () => {
    expect(render('[x](https://example.com "Example")').html).toBe(
      '<p><a href="https://example.com" title="Example">x</a></p>',
    );
    expect(render('[ ](https://example.com)').html).toBe(
      '<p><a href="https://example.com">https://example.com</a></p>',
    );
  });

  it('adds http:// to scheme-less links and mailto: to addresses', () => {
    expect(render('[a](example.com/x) [b](me@example.com)').html).toBe(
      '<p><a href="http://example.com/x">a</a> <a href="mailto:me@example.com">b</a></p>',
    );
  });

  it('makes links into the realm relative', () => {
    expect(render(`[narrow](${REALM}/#narrow/channel/1-x) ${REALM}/user_uploads/2/ab/f.pdf`).html).toBe(
      `<p><a href="#narrow/channel/1-x">narrow</a> <a href="user_uploads/2/ab/f.pdf">${REALM}/user_uploads/2/ab/f.pdf</a></p>`,
    );
  });

  it('autolinks bare URLs, domains and addresses but not file names', () => {
    expect(render('see www.zulip.com/foo, a@b.co and views.py').html).toBe(
      '<p>see <a href="http://www.zulip.com/foo">www.zulip.com/foo</a>, <a href="mailto:a@b.co">a@b.co</a> and views.py</p>',
    );
  });

  it('does not treat ![alt](url) as an image (the bare link still gets its preview)', () => {
    expect(render('![logo](https://example.com/logo.png)').html).toBe(
      '<p>![logo](<a href="https://example.com/logo.png">https://example.com/logo.png</a>)</p>\n' +
        '<div class="message_inline_image"><a href="https://example.com/logo.png">' +
        '<img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fexample.com%2Flogo.png&amp;size=full" ' +
        'src="/thumbnail?url=https%3A%2F%2Fexample.com%2Flogo.png&amp;size=thumbnail"></a></div>',
    );
  });

  it('has no reference links', () => {
    expect(render('[a]\n\n[a]: https://example.com').html).toBe(
      '<p>[a]</p>\n<p>[a]: <a href="https://example.com">https://example.com</a></p>',
    );
  });
});

describe('link bookkeeping', () => {
  it('collects upload paths of this realm only, and the link and image flags', () => {
    const result = render(
      `[pic](/user_uploads/2/ab/cd/pic.png) ${REALM}/user_uploads/2/x/doc.pdf https://other.example/user_uploads/1/z.png`,
    );
    expect(result.linkedUploadPaths).toEqual(['2/ab/cd/pic.png', '2/x/doc.pdf']);
    expect(result.hasAttachment).toBe(true);
    expect(result.hasLink).toBe(true);
    expect(result.hasImage).toBe(true);
  });

  it('does not count images linked inside quotes, which Zulip does not preview', () => {
    expect(render('> https://example.com/cat.png')).toMatchObject({ hasLink: true, hasImage: false });
  });

  it('reports no links for plain text', () => {
    expect(render('just words')).toMatchObject({
      hasLink: false,
      hasImage: false,
      hasAttachment: false,
      linkedUploadPaths: [],
    });
  });

  it('ignores uploads mentioned inside code', () => {
    expect(render('`/user_uploads/2/a/b.png`').linkedUploadPaths).toEqual([]);
  });
});

describe('sanitizeUrl', () => {
  it.each([
    ['https://example.com/x', 'https://example.com/x'],
    ['HTTPS://example.com', 'https://example.com'],
    ['/relative/path', '/relative/path'],
    ['#narrow/x', '#narrow/x'],
    ['example.com', 'http://example.com'],
    ['a b', 'http://a%20b'],
    ['tel:+1415', 'tel:+1415'],
  ])('keeps %j as %j', (input, output) => {
    expect(sanitizeUrl(input)).toBe(output);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:x',
    '\u0001javascript:x',
    'data:text/html,x',
    'vbscript:x',
    'itms://a',
  ])('rejects %j', (input) => {
    expect(sanitizeUrl(input)).toBeNull();
  });

  it('turns what it does not reject into a safe URL', () => {
    for (const input of [' javascript:x', '&#106;avascript:x', 'javascript&colon;x', '//evil.example/x']) {
      expect(sanitizeUrl(input)).toMatch(/^(https?:\/\/|mailto:)/);
    }
  });
});
