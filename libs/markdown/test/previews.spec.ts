import { renderMessage, vimeoId, youtubeId, type RenderContext, type UrlEmbedData } from '../src/index.js';

const REALM = 'https://chat.example.com';
/** A stand-in image proxy: what the messaging service's camo URLs look like, without the key. */
const proxy = (url: string) => `/external_content/sig/${Buffer.from(url).toString('hex')}`;
const render = (content: string, context: RenderContext = {}) =>
  renderMessage(content, { realmUrl: REALM, externalImageUrl: proxy, ...context });
const withPreviews = (data: Record<string, UrlEmbedData | null> = {}): RenderContext => ({
  inlineUrlEmbedPreview: true,
  urlEmbedData: new Map(Object.entries(data)),
});

describe('YouTube and Vimeo ids (no oEmbed)', () => {
  it.each([
    ['http://www.youtube.com/watch?v=hx1mjT73xYE', 'hx1mjT73xYE'],
    ['https://youtube.com/watch_popup?v=abc_-1', 'abc_-1'],
    ['https://m.youtube.com/watch?v=O5nskjZ_GoI&list=PL8', 'O5nskjZ_GoI'],
    ['http://www.youtube.com/watch_videos?video_ids=nOJgD4fcZhI,i96UO8-GFvw', 'nOJgD4fcZhI'],
    ['https://www.youtube.com/embed/xyz123', 'xyz123'],
    ['https://www.youtube.com/shorts/short1', 'short1'],
    ['https://www.youtube-nocookie.com/v/old1', 'old1'],
    ['https://youtu.be/hx1mjT73xYE', 'hx1mjT73xYE'],
  ])('%s is video %s', (url, id) => expect(youtubeId(url)).toBe(id));

  it.each([
    'https://www.youtube.com/playlist?list=PL8dPuuaLjXtNlUrzyH5r6jN9ulIgZBpdo',
    'https://www.youtube.com/watch?v=bad%20id',
    'https://notyoutube.com/watch?v=abc',
    'ftp://youtube.com/watch?v=abc',
    'https://youtu.be/',
  ])('%s is no video', (url) => expect(youtubeId(url)).toBeNull());

  it('finds Vimeo videos, channels and groups', () => {
    expect(vimeoId('https://vimeo.com/246979354')).toBe('246979354');
    expect(vimeoId('http://www.vimeo.com/channels/staffpicks/12345')).toBe('12345');
    expect(vimeoId('https://vimeo.com/groups/shortfilms/videos/777')).toBe('777');
    expect(vimeoId('https://vimeo.com/about')).toBeNull();
  });
});

describe('inline images through the image proxy', () => {
  it('shows an external image from the proxy, and this organization’s files as they are', () => {
    const url = 'https://img.example.org/cat.png';
    expect(render(url).html).toBe(
      `<div class="message_inline_image"><a href="${url}"><img src="${proxy(url)}"></a></div>`,
    );
    const upload = `${REALM}/user_uploads/2/ab/cat.png`;
    expect(render(`[cat](${upload})`).html).toBe(
      '<p><a href="user_uploads/2/ab/cat.png">cat</a></p>\n' +
        '<div class="message_inline_image"><a href="user_uploads/2/ab/cat.png" title="cat">' +
        '<img src="user_uploads/2/ab/cat.png"></a></div>',
    );
  });

  it('shows a GitHub blob from raw.githubusercontent.com and a Wikipedia file page as its file', () => {
    const blob = 'https://github.com/zulip/zulip/blob/main/static/logo.png';
    expect(render(blob).html).toContain(
      `src="${proxy('https://raw.githubusercontent.com/zulip/zulip/main/static/logo.png')}"`,
    );
    const wiki = 'https://en.wikipedia.org/wiki/File:Cat.jpg';
    expect(render(wiki).html).toContain('href="https://en.wikipedia.org/wiki/Special:FilePath/File:Cat.jpg"');
  });

  it('follows inline_image_preview, and sets has_image only for a shown preview', () => {
    const url = 'https://img.example.org/cat.png';
    expect(render(url)).toMatchObject({ hasImage: true });
    const off = render(url, { inlineImagePreview: false });
    expect(off.html).toBe(`<p><a href="${url}">${url}</a></p>`);
    expect(off.hasImage).toBe(false);
    expect(render('https://pasteboard.co/abc.png').hasImage).toBe(false);
  });
});

describe('YouTube previews', () => {
  const url = 'http://www.youtube.com/watch?v=hx1mjT73xYE';
  const thumb = proxy('https://i.ytimg.com/vi/hx1mjT73xYE/default.jpg');
  const preview =
    `<div class="youtube-video message_inline_image"><a data-id="hx1mjT73xYE" href="${url}">` +
    `<img src="${thumb}"></a></div>`;

  it('shows the thumbnail at once and keeps the link, as Zulip does', () => {
    expect(render(`Check out the debate: ${url}`).html).toBe(
      `<p>Check out the debate: <a href="${url}">${url}</a></p>\n${preview}`,
    );
    expect(render(url).hasImage).toBe(true);
    expect(render(url, { inlineImagePreview: false }).html).not.toContain('youtube-video');
  });

  it('asks for the page when website previews are on, and then titles the bare link', () => {
    expect(render(url, withPreviews()).linksForPreview).toEqual([url]);
    const titled = render(url, withPreviews({ [url]: { title: 'The debate', description: null, image: null } }));
    expect(titled.html).toBe(`<p><a href="${url}">YouTube - The debate</a></p>\n${preview}`);
    expect(titled.linksForPreview).toEqual([]);
    const named = render(
      `[watch](${url})`,
      withPreviews({ [url]: { title: 'The debate', description: null, image: null } }),
    );
    expect(named.html).toContain('>watch</a>');
  });
});

describe('website previews', () => {
  const url = 'http://test.org/';
  const rock: UrlEmbedData = {
    title: 'The Rock',
    description: 'Description text',
    image: 'http://ia.media-imdb.com/images/rock.jpg',
  };

  it('renders Zulip’s message_embed after the message, its image through the proxy', () => {
    expect(render(url, withPreviews({ [url]: rock })).html).toBe(
      `<p><a href="${url}">${url}</a></p>\n<div class="message_embed">` +
        `<a class="message_embed_image" href="${url}" style="background-image: url(&quot;${proxy(rock.image!)}&quot;)"></a>` +
        `<div class="data-container"><div class="message_embed_title"><a href="${url}" title="The Rock">The Rock</a></div>` +
        '<div class="message_embed_description">Description text</div></div></div>',
    );
  });

  it('is Zulip’s exact HTML without a proxy', () => {
    const html = renderMessage(url, { realmUrl: REALM, ...withPreviews({ [url]: rock }) }).html;
    expect(html).toBe(
      '<p><a href="http://test.org/">http://test.org/</a></p>\n<div class="message_embed"><a class="message_embed_image" href="http://test.org/" style="background-image: url(&quot;http://ia.media-imdb.com/images/rock.jpg&quot;)"></a><div class="data-container"><div class="message_embed_title"><a href="http://test.org/" title="The Rock">The Rock</a></div><div class="message_embed_description">Description text</div></div></div>',
    );
  });

  it('reports the links to fetch, in order, once each, and none of a bot, of a quote or of the organization', () => {
    const content = `a http://a.example/ b https://b.example/x?y=1 again http://a.example/\n> https://quoted.example/\n${REALM}/#narrow/x /relative`;
    expect(render(content, withPreviews()).linksForPreview).toEqual(['http://a.example/', 'https://b.example/x?y=1']);
    expect(render(content, { ...withPreviews(), sentByBot: true }).linksForPreview).toEqual([]);
    expect(render(content).linksForPreview).toEqual([]);
    expect(render('https://img.example.org/cat.png', withPreviews()).linksForPreview).toEqual([]);
  });

  it('shows nothing for a page without an image or one that had nothing to show', () => {
    const noImage = render(url, withPreviews({ [url]: { ...rock, image: null } }));
    expect(noImage.html).toBe(`<p><a href="${url}">${url}</a></p>`);
    expect(noImage.linksForPreview).toEqual([]);
    expect(render(url, withPreviews({ [url]: null })).html).toBe(`<p><a href="${url}">${url}</a></p>`);
  });

  it('titles a bare Vimeo link with the page’s title', () => {
    const vimeo = 'https://vimeo.com/246979354';
    const html = render(vimeo, withPreviews({ [vimeo]: { ...rock, title: 'A film' } })).html;
    expect(html).toContain(`<p><a href="${vimeo}">Vimeo - A film</a></p>`);
    expect(html).toContain('<div class="message_embed">');
  });

  it('escapes the page’s text and quotes in the image URL', () => {
    const html = render(
      url,
      withPreviews({ [url]: { title: '<b>"x"</b>', description: 'a < b & c', image: 'http://i.example/a"b.png' } }),
    ).html;
    expect(html).not.toContain('<b>');
    expect(html).toContain('title="&lt;b&gt;&quot;x&quot;&lt;/b&gt;"');
    expect(html).toContain('a &lt; b &amp; c');
  });
});
