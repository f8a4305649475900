/**
 * A small XML reader with the shape of Python's xml.etree.ElementTree, for the providers that post XML (Pivotal
 * Tracker's v3 activity): elements with their tag, attributes, `text` (the text before the first child, null when
 * there is none) and `tail`, and `find(tag)` of a direct child. No DTDs and no external entities are read, as
 * defusedxml refuses them; a document that is not well-formed throws.
 */

export interface XmlElement {
  tag: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** ElementTree's `.text`: the character data before the first child, or null. */
  text: string | null;
  /** ElementTree's `.tail`: the character data after this element's end tag, or null. */
  tail: string | null;
  /** The first direct child with this tag (ElementTree's `find`), or null. */
  find(tag: string): XmlElement | null;
  /** Every direct child with this tag (`findall`). */
  findAll(tag: string): XmlElement[];
}

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    const value = ENTITIES[name];
    if (value === undefined) throw new XmlError(`undefined entity ${whole}`);
    return value;
  });
}

function element(tag: string, attributes: Record<string, string>): XmlElement {
  const node: XmlElement = {
    tag,
    attributes,
    children: [],
    text: null,
    tail: null,
    find: (name) => node.children.find((c) => c.tag === name) ?? null,
    findAll: (name) => node.children.filter((c) => c.tag === name),
  };
  return node;
}

/** Parses a document; its root element. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const addText = (raw: string) => {
    if (raw.length === 0) return;
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (raw.trim() !== '') throw new XmlError('text outside the root element');
      return;
    }
    const last = parent.children[parent.children.length - 1];
    if (last) last.tail = (last.tail ?? '') + raw;
    else parent.text = (parent.text ?? '') + raw;
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    if (lt < 0) {
      addText(decode(source.slice(i)));
      break;
    }
    addText(decode(source.slice(i, lt)));
    if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt + 4);
      if (end < 0) throw new XmlError('unclosed comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', lt)) {
      const end = source.indexOf(']]>', lt + 9);
      if (end < 0) throw new XmlError('unclosed CDATA section');
      addText(source.slice(lt + 9, end));
      i = end + 3;
    } else if (source.startsWith('<?', lt)) {
      const end = source.indexOf('?>', lt + 2);
      if (end < 0) throw new XmlError('unclosed processing instruction');
      i = end + 2;
    } else if (source.startsWith('<!', lt)) {
      throw new XmlError('DTDs are not read');
    } else if (source[lt + 1] === '/') {
      const end = source.indexOf('>', lt);
      if (end < 0) throw new XmlError('unclosed end tag');
      const tag = source.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (!open || open.tag !== tag) throw new XmlError(`mismatched end tag ${tag}`);
      i = end + 1;
    } else {
      const tagMatch = /^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(source.slice(lt));
      if (!tagMatch) throw new XmlError('malformed start tag');
      const attributes: Record<string, string> = {};
      for (const [, name, dq, sq] of tagMatch[2]!.matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attributes[name!] = decode(dq ?? sq ?? '');
      }
      const node = element(tagMatch[1]!, attributes);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(node);
      else if (root) throw new XmlError('more than one root element');
      else root = node;
      if (tagMatch[3] !== '/') stack.push(node);
      i = lt + tagMatch[0].length;
    }
  }
  if (!root || stack.length > 0) throw new XmlError('no complete root element');
  return root;
}
