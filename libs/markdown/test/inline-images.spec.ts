import { renderMessage } from '../src/index.js';

const render = (content: string) => renderMessage(content, { realmUrl: 'https://chat.example.com' }).html;
const preview = (url: string, title?: string) => {
  const q = encodeURIComponent(url);
  const titleAttr = title === undefined ? '' : ` title="${title}"`;
  return (
    `<div class="message_inline_image"><a href="${url}"${titleAttr}>` +
    `<img data-src-fullsize="/thumbnail?url=${q}&amp;size=full" src="/thumbnail?url=${q}&amp;size=thumbnail"></a></div>`
  );
};

describe('inline image previews', () => {
  it('previews an image link after its paragraph, in order, once per URL', () => {
    const a = 'https://img.example.org/a.PNG';
    const b = 'https://img.example.org/b.jpg';
    expect(render(`see ${a} and ${b}\nagain ${a}`)).toBe(
      `<p>see <a href="${a}">${a}</a> and <a href="${b}">${b}</a><br>\nagain <a href="${a}">${a}</a></p>\n` +
        preview(a) +
        preview(b),
    );
  });

  it('replaces a paragraph that is only the bare link, and keeps a named one with its title', () => {
    const url = 'https://img.example.org/cat.gif';
    expect(render(url)).toBe(preview(url));
    expect(render(`[a cat](${url})`)).toBe(`<p><a href="${url}">a cat</a></p>\n${preview(url, 'a cat')}`);
  });

  it('does not preview links inside quotes, or links that are not images', () => {
    expect(render('> https://img.example.org/q.png')).not.toContain('message_inline_image');
    expect(render('https://example.org/page.html')).not.toContain('message_inline_image');
    expect(render('https://example.org/png')).not.toContain('message_inline_image');
  });

  it('previews nothing when a message has more than 24 distinct links', () => {
    const links = Array.from({ length: 25 }, (_, i) => `https://img.example.org/${i}.png`).join(' ');
    expect(render(links)).not.toContain('message_inline_image');
    const fewer = Array.from({ length: 24 }, (_, i) => `https://img.example.org/${i}.png`).join(' ');
    expect(render(fewer).match(/message_inline_image/g)).toHaveLength(24);
  });

  it('escapes what it writes into attributes', () => {
    const html = render('[x"y](https://img.example.org/a.png?q=<b>)');
    expect(html).toContain('title="x&quot;y"');
    expect(html).not.toContain('<b>');
  });
});
