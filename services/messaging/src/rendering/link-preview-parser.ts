import { DomUtils, parseDocument } from 'htmlparser2';
import type { LinkEmbed } from '../domain/render.js';

type Document = ReturnType<typeof parseDocument>;
type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/**
 * What a page says about itself, for its link preview: Zulip's url_preview parsers (zerver/lib/url_preview/parsers,
 * OpenGraphParser then GenericParser, merged as UrlEmbedData.merge does), without oEmbed.
 */

/** Whether an answer is a page to parse: HTML by its type, or, without a type, by its first bytes (Zulip sniffs it). */
export function isHtml(contentType: string | undefined, body: Buffer): boolean {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  if (type !== '') return false;
  const start = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/** The page's text: in the charset its Content-Type names, else the one its own meta tag names, else UTF-8. */
export function decodePage(body: Buffer, contentType: string | undefined): string {
  const declared =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]*charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function elements(document: Document, name: string): Element[] {
  return DomUtils.getElementsByTagName(name, document, true);
}

/** Zulip's OpenGraphParser: og:title, og:description and og:image (the last of each wins). */
export function openGraph(document: Document): LinkEmbed {
  const data: LinkEmbed = { title: null, description: null, image: null };
  for (const meta of elements(document, 'meta')) {
    const { property, content } = meta.attribs;
    if (property === undefined || content === undefined) continue;
    if (property === 'og:title') data.title = content;
    else if (property === 'og:description') data.description = content;
    else if (property === 'og:image') data.image = content;
  }
  return data;
}

const text = (element: Element | undefined) => (element ? DomUtils.textContent(element) : '');

/**
 * Zulip's GenericParser: the first `<title>` (else the first `<h1>`), the description meta tag (else the first
 * paragraph after the first `<h1>`, else the first paragraph), and an image that follows the first `<h1>`.
 */
export function generic(document: Document): LinkEmbed {
  const all = DomUtils.findAll(() => true, document.children);
  const firstH1 = all.find((e) => e.name === 'h1');
  const title = text(all.find((e) => e.name === 'title')) || text(firstH1) || null;

  let description: string | null = null;
  const meta = all.find((e) => e.name === 'meta' && e.attribs.name === 'description');
  if (meta?.attribs.content) description = meta.attribs.content;
  if (description === null && firstH1) {
    const after = all.slice(all.indexOf(firstH1) + 1).find((e) => e.name === 'p');
    if (text(after) !== '') description = text(after);
  }
  if (description === null) {
    const firstP = all.find((e) => e.name === 'p');
    if (text(firstP) !== '') description = text(firstP);
  }

  let image: string | null = null;
  const siblings = firstH1?.parent ? DomUtils.getChildren(firstH1.parent) : [];
  const next = siblings
    .slice(siblings.indexOf(firstH1!) + 1)
    .find((node): node is Element => DomUtils.isTag(node) && node.name === 'img' && 'src' in node.attribs);
  if (next) image = next.attribs.src || null;
  return { title, description, image };
}

/** The page's preview: Open Graph first, the generic guesses where it is silent; the image made absolute (http(s)). */
export function parseLinkPreview(body: Buffer, contentType: string | undefined, pageUrl: string): LinkEmbed {
  const document = parseDocument(decodePage(body, contentType));
  const data = openGraph(document);
  const fallback = generic(document);
  data.title ??= fallback.title;
  data.description ??= fallback.description;
  data.image ??= fallback.image;
  if (data.image !== null) {
    try {
      const absolute = new URL(data.image, pageUrl);
      data.image = absolute.protocol === 'http:' || absolute.protocol === 'https:' ? absolute.href : null;
    } catch {
      data.image = null;
    }
  }
  return data;
}
