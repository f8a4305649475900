import type { StateCore, Token } from 'markdown-it';
import type { ParseEnv } from '../env.js';
import { openTag } from '../html.js';
import { looksLikeImage } from '../urls.js';

/** Zulip's INLINE_PREVIEW_LIMIT_PER_MESSAGE: more distinct links than this and none is previewed. */
const PREVIEW_LIMIT = 24;

export interface InlineImageMeta {
  href: string;
  /** The link's text when it differs from the URL (a named link). */
  title: string | null;
}

/** Zulip's /thumbnail query value: every reserved character percent-encoded (Python's quote with safe=''). */
function thumbnailParam(url: string): string {
  return encodeURIComponent(url).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function renderInlineImage({ href, title }: InlineImageMeta): string {
  const thumbnail = `/thumbnail?url=${thumbnailParam(href)}`;
  const img = openTag('img', { 'data-src-fullsize': `${thumbnail}&size=full`, src: `${thumbnail}&size=thumbnail` });
  const a = openTag('a', { href, title: title ?? undefined });
  return `<div class="message_inline_image">${a}${img}</a></div>`;
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

/**
 * Zulip's inline image previews: each distinct image link outside quotes gets a preview after its paragraph (inside
 * its list item for tight lists), and a paragraph or list item that held nothing but the bare link loses the link.
 */
export function inlineImages(state: StateCore): void {
  const env = state.env as ParseEnv;
  if (env.mode !== 'render') return;
  const tokens = state.tokens;
  const found = findLinks(tokens);
  const previewable = new Set(found.filter((l) => !l.quoted).map((l) => l.href));
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;

  const processed = new Set<string>();
  /** Insertions are applied last to first, so earlier indexes stay valid. */
  const inserts: { at: number; token: Token; order: number }[] = [];
  const removals = new Set<Token>();
  const removedLinks: { inline: Token; child: number }[] = [];
  found.forEach((link, order) => {
    if (link.quoted || processed.has(link.href)) return;
    processed.add(link.href);
    if (!looksLikeImage(link.href)) return;
    const inline = tokens[link.inline]!;
    const children = inline.children!;
    const bare = link.text === link.href;
    const preview = new state.Token('zulip_inline_image', '', 0);
    preview.meta = { image: { href: link.href, title: bare ? null : link.text } satisfies InlineImageMeta };
    preview.block = true;
    const paragraphOpen = link.inline - 1;
    if (!link.direct) {
      inserts.push({ at: tokens.length, token: preview, order });
      return;
    }
    const paragraph = tokens[paragraphOpen]!;
    if (paragraph.hidden) {
      // A tight list item: the preview ends the item; a link with nothing around it goes.
      const item = tokens.slice(0, paragraphOpen).findLastIndex((t) => t.type === 'list_item_open');
      inserts.push({ at: closing(tokens, item, 'list_item_close'), token: preview, order });
      const after = children[closingLink(children, link.child) + 1];
      if (bare && link.child === 0 && (after === undefined || after.type !== 'text' || after.content === '')) {
        removedLinks.push({ inline, child: link.child });
      }
      return;
    }
    const paragraphClose = closing(tokens, paragraphOpen, 'paragraph_close');
    inserts.push({ at: paragraphClose + 1, token: preview, order });
    const onlyTheLink = link.child === 0 && closingLink(children, link.child) === children.length - 1;
    if (bare && onlyTheLink) {
      removals.add(paragraph);
      removals.add(inline);
      removals.add(tokens[paragraphClose]!);
    }
  });

  for (const { inline, child } of removedLinks.reverse()) {
    inline.children!.splice(child, closingLink(inline.children!, child) - child + 1);
  }
  inserts.sort((a, b) => b.at - a.at || b.order - a.order);
  for (const { at, token } of inserts) tokens.splice(at, 0, token);
  if (removals.size > 0) state.tokens = tokens.filter((token) => !removals.has(token));
}

function closingLink(children: readonly Token[], open: number): number {
  for (let i = open + 1; i < children.length; i++) if (children[i]!.type === 'link_close') return i;
  return children.length - 1;
}
