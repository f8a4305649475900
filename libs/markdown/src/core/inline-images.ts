import type { StateCore, Token } from 'markdown-it';
import type { ResolvedContext } from '../context.js';
import type { ParseEnv } from '../env.js';
import { escapeText, openTag } from '../html.js';

import { looksLikeImage } from '../urls.js';

/**
 * Zulip's InlineInterestingLinkProcessor (zerver/lib/markdown/__init__.py): image links become inline images,
 * YouTube links get their thumbnail, and other links of other sites get the website preview fetched after the send
 * (`message_embed`), or are reported for fetching (`linksForPreview`) when no data is known for them yet.
 */

/** Zulip's INLINE_PREVIEW_LIMIT_PER_MESSAGE: more distinct links than this and none is previewed. */
const PREVIEW_LIMIT = 24;

export interface InlineImageMeta {
  href: string;
  /** The link's text when it differs from the URL (a named link). */
  title: string | null;
  /** What the `<img>` shows: the image itself for this organization's files, else through the image proxy. */
  src?: string;
  /** `youtube-video message_inline_image`, with the video id as `data-id`. */
  youtubeId?: string;
}

/** Zulip's /thumbnail query value: every reserved character percent-encoded (Python's quote with safe=''). */
function thumbnailParam(url: string): string {
  return encodeURIComponent(url).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function renderInlineImage({ href, title, src, youtubeId }: InlineImageMeta): string {
  const a = openTag('a', { 'data-id': youtubeId, href, title: title ?? undefined });
  const divClass = youtubeId === undefined ? 'message_inline_image' : 'youtube-video message_inline_image';
  let img: string;
  if (src !== undefined) img = openTag('img', { src });
  else {
    // Without an image proxy: Zulip's /thumbnail form (the messaging service answers it with the proxied image).
    const thumbnail = `/thumbnail?url=${thumbnailParam(href)}`;
    img = openTag('img', { 'data-src-fullsize': `${thumbnail}&size=full`, src: `${thumbnail}&size=thumbnail` });
  }
  return `<div class="${divClass}">${a}${img}</a></div>`;
}

/** A website preview (Zulip's add_embed): the page's image as a background, its title and description. */
export interface EmbedMeta {
  href: string;
  /** The image's URL as the page gives it, through the image proxy. */
  image: string;
  title: string | null;
  description: string | null;
}

/** The CSS string of Zulip's `background-image: url("…")`, escaped as Zulip escapes it. */
function cssUrl(url: string): string {
  return url.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ');
}

export function renderEmbed({ href, image, title, description }: EmbedMeta): string {
  const imageLink = openTag('a', {
    class: 'message_embed_image',
    href,
    style: `background-image: url("${cssUrl(image)}")`,
  });
  const titleHtml = title
    ? `<div class="message_embed_title">${openTag('a', { href, title })}${escapeText(title)}</a></div>`
    : '';
  const descriptionHtml = description ? `<div class="message_embed_description">${escapeText(description)}</div>` : '';
  return `<div class="message_embed">${imageLink}</a><div class="data-container">${titleHtml}${descriptionHtml}</div></div>`;
}

/** Zulip's youtube_id: the video of a YouTube watch, embed, shorts or youtu.be link. */
export function youtubeId(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  let id: string | null | undefined = null;
  const host = parsed.hostname.toLowerCase();
  if (
    ['m.youtube.com', 'www.youtube.com', 'www.youtube-nocookie.com', 'youtube.com', 'youtube-nocookie.com'].includes(
      host,
    )
  ) {
    const query = parsed.searchParams;
    if ((parsed.pathname === '/watch' || parsed.pathname === '/watch_popup') && query.has('v')) id = query.get('v');
    else if (parsed.pathname === '/watch_videos' && query.has('video_ids'))
      id = query.get('video_ids')!.split(',', 1)[0];
    else if (/^\/(embed|shorts|v)\//.test(parsed.pathname)) id = parsed.pathname.split('/')[2];
  } else if (host === 'youtu.be' && parsed.pathname.startsWith('/')) {
    id = decodeURIComponentSafe(parsed.pathname.slice(1));
  }
  return id && /^[0-9A-Za-z_-]+$/.test(id) ? id : null;
}

/** Zulip's vimeo_id: the video of a vimeo.com link (its title comes from the page's preview). */
export function vimeoId(url: string): string | null {
  const match =
    /^((http|https)?:\/\/(www\.)?vimeo.com\/(?:channels\/(?:\w+\/)?|groups\/([^/]*)\/videos\/|)(\d+)(?:|\/\?))$/.exec(
      url,
    );
  return match?.[5] ?? null;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Zulip's get_actual_image_url: a GitHub `blob` page of an image is shown from raw.githubusercontent.com. */
function actualImageUrl(url: string): string {
  const parsed = tryUrl(url);
  if (parsed && (parsed.host === 'github.com' || parsed.host.endsWith('.github.com'))) {
    const parts = parsed.pathname.split('/');
    if (parts.length > 3 && parts[3] === 'blob')
      return new URL([...parts.slice(0, 3), ...parts.slice(4)].join('/'), 'https://raw.githubusercontent.com').href;
  }
  return url;
}

/** Zulip's corrected_image_source: Wikipedia file pages and linx.li links point at the image itself. */
function correctedImageSource(url: string): string | null {
  const parsed = tryUrl(url);
  if (!parsed) return null;
  if (parsed.hostname.toLowerCase().endsWith('.wikipedia.org') && parsed.pathname.startsWith('/wiki/File:')) {
    parsed.pathname = parsed.pathname.replace('/wiki/File:', '/wiki/Special:FilePath/File:');
    return parsed.href;
  }
  if (parsed.host === 'linx.li') return `https://linx.li/s${parsed.pathname}`;
  return null;
}

function tryUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The host of an absolute link, '' for a relative one. */
function hostOf(href: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(href) && !href.startsWith('//')) return '';
  return tryUrl(href.startsWith('//') ? `http:${href}` : href)?.host ?? '';
}

/** Zulip's is_image: by the path's extension, and not pasteboard.co's pages that end like images. */
function isImage(href: string, context: ResolvedContext): boolean {
  if (!context.inlineImagePreview) return false;
  if (hostOf(href) === 'pasteboard.co') return false;
  return looksLikeImage(href);
}

/**
 * What an `<img>` of this URL shows (Zulip's InlineImageProcessor): this organization's own files as they are, any
 * other host through the image proxy when there is one (Zulip's camo).
 */
function imageSource(url: string, context: ResolvedContext): string | undefined {
  if (!context.externalImageUrl) return undefined;
  const host = hostOf(url);
  if (host === '' || host === context.realmHost) return url;
  return context.externalImageUrl(url);
}

interface FoundLink {
  href: string;
  text: string;
  /** Index of the inline token holding the link, and of its link_open among the inline's children. */
  inline: number;
  child: number;
  /** The link sits directly in a paragraph or list item (not inside emphasis, a heading or a table). */
  direct: boolean;
  quoted: boolean;
}

function linkText(children: readonly Token[], open: number): string {
  let text = '';
  for (let i = open + 1; i < children.length && children[i]!.type !== 'link_close'; i++) {
    text += children[i]!.content;
  }
  return text;
}

function findLinks(tokens: readonly Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  let quoteDepth = 0;
  tokens.forEach((block, inline) => {
    if (block.type === 'blockquote_open') quoteDepth++;
    if (block.type === 'blockquote_close') quoteDepth--;
    if (block.type !== 'inline' || block.children === null) return;
    const inParagraph = tokens[inline - 1]?.type === 'paragraph_open';
    let depth = 0;
    block.children.forEach((token, child) => {
      if (token.type === 'link_open') {
        const href = String(token.attrGet('href') ?? '');
        const text = linkText(block.children!, child);
        found.push({ href, text, inline, child, direct: inParagraph && depth === 0, quoted: quoteDepth > 0 });
      }
      depth += token.nesting;
    });
  });
  return found;
}

/** Index just past the block that closes the one opened at `open` (same level, opposite nesting). */
function closing(tokens: readonly Token[], open: number, type: string): number {
  for (let i = open + 1; i < tokens.length; i++) {
    if (tokens[i]!.type === type && tokens[i]!.level === tokens[open]!.level) return i;
  }
  return tokens.length - 1;
}

function closingLink(children: readonly Token[], open: number): number {
  for (let i = open + 1; i < children.length; i++) if (children[i]!.type === 'link_close') return i;
  return children.length - 1;
}

/** Insertions are applied last to first, so earlier indexes stay valid; `order` keeps the links' order. */
interface Insert {
  at: number;
  token: Token;
  order: number;
}

/**
 * Where an inline preview of `link` goes (Zulip's get_inlining_information): after its paragraph (inside its list
 * item for tight lists), or at the end of the message; and whether the bare link goes, when nothing else was there.
 */
function placePreview(
  tokens: Token[],
  link: FoundLink,
  preview: Token,
  order: number,
  out: { inserts: Insert[]; removals: Set<Token>; removedLinks: { inline: Token; child: number }[] },
  removable: boolean,
): void {
  const bare = link.text === link.href;
  if (!link.direct) {
    out.inserts.push({ at: tokens.length, token: preview, order });
    return;
  }
  const inline = tokens[link.inline]!;
  const children = inline.children!;
  const paragraphOpen = link.inline - 1;
  const paragraph = tokens[paragraphOpen]!;
  if (paragraph.hidden) {
    const item = tokens.slice(0, paragraphOpen).findLastIndex((t) => t.type === 'list_item_open');
    out.inserts.push({ at: closing(tokens, item, 'list_item_close'), token: preview, order });
    const after = children[closingLink(children, link.child) + 1];
    if (removable && bare && link.child === 0 && (after === undefined || after.type !== 'text' || after.content === ''))
      out.removedLinks.push({ inline, child: link.child });
    return;
  }
  const paragraphClose = closing(tokens, paragraphOpen, 'paragraph_close');
  out.inserts.push({ at: paragraphClose + 1, token: preview, order });
  const onlyTheLink = link.child === 0 && closingLink(children, link.child) === children.length - 1;
  if (removable && bare && onlyTheLink) {
    out.removals.add(paragraph);
    out.removals.add(inline);
    out.removals.add(tokens[paragraphClose]!);
  }
}

/** Zulip's "YouTube - <title>" / "Vimeo - <title>": a bare link's text becomes the video's title. */
function retitle(state: StateCore, link: FoundLink, title: string): void {
  if (link.text !== link.href) return;
  const children = state.tokens[link.inline]!.children!;
  const end = closingLink(children, link.child);
  const text = new state.Token('text', '', 0);
  text.content = title;
  children.splice(link.child + 1, end - link.child - 1, text);
}

/**
 * Zulip's inline previews: each distinct link outside quotes, in order, becomes an inline image (image links), a
 * YouTube thumbnail, or a website preview at the end of the message once its data is known. Only in render mode.
 */
export function inlineImages(state: StateCore): void {
  const env = state.env as ParseEnv;
  if (env.mode !== 'render') return;
  const context = env.context;
  const tokens = state.tokens;
  const found = findLinks(tokens);
  const previewable = new Set(found.filter((l) => !l.quoted).map((l) => l.href));
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;

  const processed = new Set<string>();
  const out = {
    inserts: [] as Insert[],
    removals: new Set<Token>(),
    removedLinks: [] as { inline: Token; child: number }[],
  };
  const block = (type: string, meta: Record<string, unknown>) => {
    const token = new state.Token(type, '', 0);
    token.meta = meta;
    token.block = true;
    return token;
  };
  found.forEach((link, order) => {
    if (link.quoted || processed.has(link.href)) return;
    processed.add(link.href);
    const href = link.href;
    if (isImage(href, context)) {
      const corrected = correctedImageSource(href);
      const target = corrected ?? href;
      const shown = corrected ? { ...link, href: corrected, text: corrected } : link;
      const image: InlineImageMeta = {
        href: target,
        title: shown.text === shown.href ? null : shown.text,
        src: imageSource(actualImageUrl(target), context),
      };
      placePreview(tokens, shown, block('zulip_inline_image', { image }), order, out, true);
      env.previews.hasImage = true;
      return;
    }
    const host = hostOf(href);
    // Zulip does not preview relative links or links into the organization itself.
    if (host === '' || host === context.realmHost) return;
    const youtube = context.inlineImagePreview ? youtubeId(href) : null;
    if (youtube !== null) {
      const thumbnail = `https://i.ytimg.com/vi/${youtube}/default.jpg`;
      const image: InlineImageMeta = {
        href,
        title: null,
        src: context.externalImageUrl ? context.externalImageUrl(thumbnail) : thumbnail,
        youtubeId: youtube,
      };
      placePreview(tokens, link, block('zulip_inline_image', { image }), order, out, false);
      env.previews.hasImage = true;
    }
    if (context.sentByBot || !context.inlineUrlEmbedPreview) return;
    if (!context.urlEmbedData.has(href)) {
      env.previews.linksForPreview.push(href);
      return;
    }
    const data = context.urlEmbedData.get(href);
    if (!data) return;
    if (youtube !== null) {
      if (data.title !== null) retitle(state, link, `YouTube - ${data.title}`);
      return;
    }
    if (data.image === null) return;
    const embed: EmbedMeta = {
      href,
      image: context.externalImageUrl ? context.externalImageUrl(data.image) : data.image,
      title: data.title,
      description: data.description,
    };
    out.inserts.push({ at: tokens.length, token: block('zulip_embed', { embed }), order });
    if (context.inlineImagePreview && vimeoId(href) !== null && data.title)
      retitle(state, link, `Vimeo - ${data.title}`);
  });

  for (const { inline, child } of out.removedLinks.reverse()) {
    inline.children!.splice(child, closingLink(inline.children!, child) - child + 1);
  }
  out.inserts.sort((a, b) => b.at - a.at || b.order - a.order);
  for (const { at, token } of out.inserts) tokens.splice(at, 0, token);
  if (out.removals.size > 0) state.tokens = tokens.filter((token) => !out.removals.has(token));
}
