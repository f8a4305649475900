import { loadConfig } from '../src/config';
import { ImageProxyUrls } from '../src/rendering/camo';
import { decodePage, isHtml, parseLinkPreview } from '../src/rendering/link-preview-parser';

const page = (html: string) => Buffer.from(html, 'utf8');
const parse = (html: string, url = 'https://site.example/a/page.html', type = 'text/html; charset=UTF-8') =>
  parseLinkPreview(page(html), type, url);

describe('the link preview parsers (Open Graph, then the generic guesses)', () => {
  it('takes og:title, og:description and og:image, the image made absolute against the page', () => {
    expect(
      parse(`<html><head>
        <title>Not this</title>
        <meta property="og:title" content="The Rock" />
        <meta property="og:type" content="video.movie" />
        <meta property="og:image" content="/images/rock.jpg" />
        <meta property="og:description" content="The Rock film" />
        <meta property="notog:extra-text" content="Extra!" />
      </head><body><h1>Main header</h1><p>Other text</p></body></html>`),
    ).toEqual({
      title: 'The Rock',
      description: 'The Rock film',
      image: 'https://site.example/images/rock.jpg',
    });
  });

  it('falls back on <title>, the description meta tag, and an image after the first <h1>', () => {
    expect(
      parse(`<html><head><title>Test title</title><meta name="description" content="description 123"></head>
        <body><h1>Main header</h1><img data-src="Not an image"><img src="pic.png"><p>Description text</p></body></html>`),
    ).toEqual({ title: 'Test title', description: 'description 123', image: 'https://site.example/a/pic.png' });
  });

  it('takes the <h1> without a title, and the first paragraph after it, else the first paragraph', () => {
    expect(
      parse('<html><body><p>Before</p><h1>Main header</h1><div><p>Description text</p></div></body></html>'),
    ).toEqual({
      title: 'Main header',
      description: 'Description text',
      image: null,
    });
    expect(parse('<html><body><div><div><p>Only text</p></div></div></body></html>')).toEqual({
      title: null,
      description: 'Only text',
      image: null,
    });
    expect(parse('<html><body></body></html>')).toEqual({ title: null, description: null, image: null });
  });

  it('decodes entities, and drops an image that is no web URL', () => {
    const data = parse(
      '<meta property="og:title" content="Tom &amp; Jerry"><meta property="og:image" content="javascript:alert(1)">',
    );
    expect(data).toEqual({ title: 'Tom & Jerry', description: null, image: null });
  });

  it('reads the charset of the Content-Type, else of the page’s own meta tag', () => {
    const big5 = Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]); // 中文 in Big5
    const html = Buffer.concat([
      Buffer.from('<html><head><meta property="og:title" content="'),
      big5,
      Buffer.from('" /></head></html>'),
    ]);
    expect(parseLinkPreview(html, 'text/html; charset=Big5', 'https://x.example/').title).toBe('中文');
    const meta = Buffer.concat([Buffer.from('<meta charset="big5">'), html]);
    expect(parseLinkPreview(meta, 'text/html', 'https://x.example/').title).toBe('中文');
    expect(decodePage(Buffer.from('é'), 'text/html; charset=no-such-charset')).toBe('é');
  });

  it('parses only HTML pages: by their type, or by their first bytes when they have none', () => {
    expect(isHtml('text/html; charset=utf-8', page(''))).toBe(true);
    expect(isHtml('application/xhtml+xml', page(''))).toBe(true);
    expect(isHtml('image/png', page('<html>'))).toBe(false);
    expect(isHtml('application/json', page('{}'))).toBe(false);
    expect(isHtml(undefined, page('  <!DOCTYPE html><html>'))).toBe(true);
    expect(isHtml(undefined, page('\x89PNG'))).toBe(false);
  });
});

describe('the image proxy URLs (camo)', () => {
  const urls = new ImageProxyUrls('a-key-of-the-test-of-32-characters!');

  it('signs a URL and reads back only what it signed', () => {
    const url = 'https://img.example.org/cat (1).png?size=2';
    const proxied = urls.url(url);
    const [, , digest, hex] = proxied.split('/');
    expect(proxied).toMatch(/^\/external_content\/[0-9a-f]{40}\/[0-9a-f]+$/);
    expect(Buffer.from(hex!, 'hex').toString()).toBe(url);
    expect(urls.target(digest!, hex!)).toBe(url);
    const other = Buffer.from('http://127.0.0.1:9101/internal').toString('hex');
    expect(urls.target(digest!, other)).toBeNull();
    expect(urls.target('0'.repeat(40), hex!)).toBeNull();
    expect(urls.target(digest!.toUpperCase(), hex!)).toBeNull();
    expect(urls.target('xyz', hex!)).toBeNull();
    expect(urls.target(digest!, 'abc')).toBeNull();
    expect(new ImageProxyUrls('another-key-of-32-characters-long').target(digest!, hex!)).toBeNull();
  });

  it('is keyed from the upload URL key unless CONFAB_CAMO_KEY is set, which is then checked as a secret', () => {
    const base = { MESSAGING_DATABASE_URL: 'postgresql://localhost/messaging', NODE_ENV: 'production' };
    const secrets = {
      CONFAB_INTERNAL_SECRET: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7',
      CONFAB_UPLOAD_URL_KEY: 'f0e1d2c3b4a5968778695a4b3c2d1e0f1234',
    };
    const derived = loadConfig({ ...base, ...secrets }).imageProxy.key;
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(derived).not.toBe(secrets.CONFAB_UPLOAD_URL_KEY);
    const own = '9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee';
    expect(loadConfig({ ...base, ...secrets, CONFAB_CAMO_KEY: own }).imageProxy.key).toBe(own);
    expect(() => loadConfig({ ...base, ...secrets, CONFAB_CAMO_KEY: 'short' })).toThrow(/CONFAB_CAMO_KEY is too short/);
  });
});
