import { PUNCTUATION } from './python.js';
import { textWrap } from './textwrap.js';

/**
 * Zulip's convert_html_to_markdown (zerver/lib/email_notifications.py): html2text's HTML2Text with its defaults —
 * paragraphs wrapped at 78 columns, inline links, `**strong**`, `_em_`, `* ` list items, `  \n` for <br>, images
 * as `![alt](src)` — then stripped, and an image link with a query string made a plain link to the file. Written
 * after html2text's rules for what providers send (Freshdesk's ticket descriptions); tables and Google Docs'
 * quirks are left out.
 */

/** html2text's UNIFIABLE: what named references become without unicode_snob. */
const UNIFIABLE: Record<string, string> = {
  rsquo: "'",
  lsquo: "'",
  rdquo: '"',
  ldquo: '"',
  copy: '(C)',
  mdash: '--',
  nbsp: '&nbsp_place_holder;',
  rarr: '->',
  larr: '<-',
  middot: '*',
  ndash: '-',
  oelig: 'oe',
  aelig: 'ae',
  lrm: '',
  rlm: '',
};
for (const [vowel, accents] of Object.entries({ a: 'grave acute circ tilde uml ring', e: 'grave acute circ uml' })) {
  for (const accent of accents.split(' ')) UNIFIABLE[`${vowel}${accent}`] = vowel;
}
for (const vowel of ['i', 'o', 'u']) {
  for (const accent of ['grave', 'acute', 'circ', 'uml']) UNIFIABLE[`${vowel}${accent}`] = vowel;
}
UNIFIABLE.otilde = 'o';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", hellip: '…', euro: '€' };

function entity(name: string): string {
  return UNIFIABLE[name] ?? NAMED[name] ?? `&${name};`;
}

function charref(ref: string): string {
  const code = ref[0] === 'x' || ref[0] === 'X' ? parseInt(ref.slice(1), 16) : parseInt(ref, 10);
  const unifiable: Record<number, string> = { 8217: "'", 8216: "'", 8221: '"', 8220: '"', 169: '(C)', 8212: '--' };
  if (unifiable[code] !== undefined) return unifiable[code];
  if (code === 160) return '&nbsp_place_holder;';
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** escape_md_section: what could turn text into Markdown syntax, escaped. */
function escapeSection(text: string): string {
  return text
    .replace(/(\\)(?=[\\`*_{}[\]()#+\-.!])/g, '\\$1')
    .replace(/^(\s*\d+)(\.)(?=\s)/gm, '$1\\$2')
    .replace(/^(\s*)(\+)(?=\s)/gm, '$1\\$2')
    .replace(/^(\s*)(-)(?=\s|-)/gm, '$1\\$2');
}

/** escape_md: brackets, parentheses and backslashes of a URL or alt text. */
const escapeMd = (text: string) => text.replace(/([\\[\]()])/g, '\\$1');

const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'wbr']);

class Converter {
  private out: string[] = [];
  private lastWasNL = false;
  private pP = 0;
  private start = true;
  private space = false;
  private quiet = 0;
  private blockquote = 0;
  private pre = false;
  private startPre = false;
  private code = false;
  private stressed = false;
  private precedingStressed = false;
  private precedingData = '';
  private currentTag = '';
  private brToggle = '';
  private readonly aStack: (Record<string, string> | null)[] = [];
  private maybeAutomaticLink: string | null = null;
  private emptyLink = false;
  private readonly lists: { name: string; num: number }[] = [];

  private emit(s: string): void {
    this.out.push(s);
    if (s.length > 0) this.lastWasNL = s.endsWith('\n');
  }

  private p(): void {
    this.pP = 2;
  }

  private pbr(): void {
    if (this.pP === 0) this.pP = 1;
  }

  o(input: string, puredata = false, force: false | 'end' = false): void {
    let data = input;
    if (this.quiet) return;
    if (puredata && !this.pre) {
      data = data.replace(/\s+/g, ' ');
      if (data.startsWith(' ')) {
        this.space = true;
        data = data.slice(1);
      }
    }
    if (!data && !force) return;
    let bq = '>'.repeat(this.blockquote);
    if (this.blockquote && !data.startsWith('>')) bq += ' ';
    if (this.pre) {
      bq += '    ';
      data = data.split('\n').join(`\n${bq}`);
    }
    if (this.startPre) {
      this.startPre = false;
      if (!data.startsWith('\n')) data = `\n${data}`;
    }
    if (this.start) {
      this.space = false;
      this.pP = 0;
      this.start = false;
    }
    if (force === 'end') {
      this.pP = 0;
      this.emit('\n');
      this.space = false;
    }
    if (this.pP) {
      this.emit(`${this.brToggle}\n${bq}`.repeat(this.pP));
      this.space = false;
      this.brToggle = '';
    }
    if (this.space) {
      if (!this.lastWasNL) this.emit(' ');
      this.space = false;
    }
    this.pP = 0;
    this.emit(data);
  }

  data(input: string, entityChar = false): void {
    let data = input;
    if (!data) return;
    if (this.stressed) {
      data = data.trim();
      this.stressed = false;
      this.precedingStressed = true;
    } else if (this.precedingStressed) {
      if (
        /^[^\][(){}\s.!?]/.test(data) &&
        !/^h[1-6]$/.test(this.currentTag) &&
        !['a', 'code', 'pre'].includes(this.currentTag)
      ) {
        data = ` ${data}`;
      }
      this.precedingStressed = false;
    }
    if (this.maybeAutomaticLink !== null) {
      const href = this.maybeAutomaticLink;
      if (href === data && /^[a-zA-Z+]+:\/\//.test(href)) {
        this.o(`<${data}>`);
        this.emptyLink = false;
        return;
      }
      this.o('[');
      this.maybeAutomaticLink = null;
      this.emptyLink = false;
    }
    if (!this.code && !this.pre && !entityChar) data = escapeSection(data);
    this.precedingData = data;
    this.o(data, true);
  }

  tag(tag: string, attrs: Record<string, string>, start: boolean): void {
    this.currentTag = tag;
    if (['head', 'style', 'script'].includes(tag)) this.quiet += start ? 1 : -1;
    if (tag === 'body') this.quiet = 0;
    if (tag === 'blockquote') {
      if (start) {
        this.p();
        this.o('> ');
        this.start = true;
        this.blockquote++;
      } else {
        this.blockquote--;
        this.p();
      }
    }
    if (tag === 'p' || tag === 'div') this.p();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      this.p();
      if (start) this.o(`${'#'.repeat(Number(heading[1]))} `);
    }
    if (tag === 'br' && start) this.o(this.blockquote > 0 ? '  \n> ' : '  \n');
    if (tag === 'hr' && start) {
      this.p();
      this.o('* * *');
      this.p();
    }
    if (['em', 'i', 'u'].includes(tag)) {
      const last = this.precedingData.at(-1);
      const separate = start && last !== undefined && !/\s/.test(last) && !PUNCTUATION.includes(last);
      if (separate) this.precedingData += ' ';
      this.o(separate ? ' _' : '_');
      if (start) this.stressed = true;
    }
    if (tag === 'strong' || tag === 'b') {
      const separate = start && this.precedingData.at(-1) === '*';
      if (separate) this.precedingData += ' ';
      this.o(separate ? ' **' : '**');
      if (start) this.stressed = true;
    }
    if (['del', 'strike', 's'].includes(tag)) {
      this.o('~~');
      if (start) this.stressed = true;
    }
    if ((tag === 'code' || tag === 'tt') && !this.pre) {
      this.o('`');
      this.code = start;
    }
    if (tag === 'a') this.anchor(attrs, start);
    if (tag === 'img' && start && 'src' in attrs) {
      if (this.maybeAutomaticLink !== null) {
        this.o('[');
        this.maybeAutomaticLink = null;
        this.emptyLink = false;
      }
      this.o(`![${escapeMd(attrs.alt ?? '')}]`);
      this.o(`(${escapeMd(attrs.src)})`);
    }
    if (tag === 'ul' || tag === 'ol') {
      if (start) this.lists.push({ name: tag, num: Number(attrs.start ?? 1) - 1 });
      else {
        this.lists.pop();
        if (this.lists.length === 0) this.o('\n');
      }
    }
    if (tag === 'li') {
      this.pbr();
      if (start) {
        const li = this.lists.at(-1) ?? { name: 'ul', num: 0 };
        let parent: string | null = null;
        for (const list of this.lists) {
          this.o(parent === 'ol' && list.name === 'ul' ? '   ' : '  ');
          parent = list.name;
        }
        if (li.name === 'ul') this.o('* ');
        else this.o(`${++li.num}. `);
        this.start = true;
      }
    }
    if (tag === 'pre') {
      if (start) {
        this.startPre = true;
        this.pre = true;
      } else this.pre = false;
      this.p();
    }
  }

  private anchor(attrs: Record<string, string>, start: boolean): void {
    if (start) {
      if (attrs.href !== undefined) {
        this.aStack.push(attrs);
        this.maybeAutomaticLink = attrs.href;
        this.emptyLink = true;
      } else this.aStack.push(null);
      return;
    }
    if (this.aStack.length === 0) return;
    const a = this.aStack.pop();
    if (this.maybeAutomaticLink !== null && !this.emptyLink) this.maybeAutomaticLink = null;
    else if (a) {
      if (this.emptyLink) {
        this.o('[');
        this.emptyLink = false;
        this.maybeAutomaticLink = null;
      }
      this.pP = 0;
      const title = a.title ? ` "${escapeMd(a.title)}"` : '';
      this.o(`](${escapeMd(a.href!)}${title})`);
    }
  }

  close(): string {
    this.pbr();
    this.o('', false, 'end');
    return this.out.join('').split('&nbsp_place_holder;').join(' ');
  }
}

function attributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attrs[m[1]!.toLowerCase()] = decodeReferences(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

const decodeReferences = (text: string) =>
  text.replace(/&(#[xX]?[0-9a-fA-F]+|\w+);/g, (_w, ref: string) =>
    ref.startsWith('#') ? charref(ref.slice(1)) : entity(ref),
  );

/** html2text's skipwrap: code blocks and lists are left as they are. */
function skipWrap(para: string): boolean {
  if (para.startsWith('    ') || para.startsWith('\t')) return true;
  const stripped = para.trimStart();
  if (stripped.startsWith('--') && stripped.length > 2 && stripped[2] !== '-') return false;
  if ((stripped.startsWith('-') || stripped.startsWith('*')) && !stripped.startsWith('**')) return true;
  return /^\d+\.\s/.test(stripped) || /^[-+*]\s/.test(stripped);
}

/** html2text's optwrap: every paragraph wrapped at 78 columns. */
function optWrap(text: string, width = 78): string {
  let result = '';
  let newlines = 0;
  for (const para of text.split('\n')) {
    if (para.length > 0) {
      if (!skipWrap(para)) {
        const indent = para.startsWith('  *') ? '    ' : para.startsWith('> ') ? '> ' : '';
        result += textWrap(para, width, indent).join('\n');
        if (para.endsWith('  ')) {
          result += '  \n';
          newlines = 1;
        } else if (indent) {
          result += '\n';
          newlines = 1;
        } else {
          result += '\n\n';
          newlines = 2;
        }
      } else if (!/^\s\+/.test(para)) {
        result += `${para}\n`;
        newlines = 1;
      }
    } else if (newlines < 2) {
      result += '\n';
      newlines++;
    }
  }
  return result;
}

/** html2text's HTML2Text().handle(html). */
export function html2text(html: string): string {
  const converter = new Converter();
  const token =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<\/\s*([A-Za-z][\w:-]*)\s*>|<([A-Za-z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|&(#[xX]?[0-9a-fA-F]+|\w+);/g;
  let last = 0;
  for (const m of html.matchAll(token)) {
    if (m.index > last) converter.data(html.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) converter.tag(m[1].toLowerCase(), {}, false);
    else if (m[2] !== undefined) {
      const tag = m[2].toLowerCase();
      converter.tag(tag, attributes(m[3] ?? ''), true);
      if (m[4] === '/' && !VOID.has(tag)) converter.tag(tag, {}, false);
    } else if (m[5] !== undefined) {
      converter.data(m[5].startsWith('#') ? charref(m[5].slice(1)) : entity(m[5]), true);
    }
  }
  if (last < html.length) converter.data(html.slice(last));
  return optWrap(converter.close());
}

/** Zulip's convert_html_to_markdown. */
export function convertHtmlToMarkdown(html: string): string {
  const markdown = html2text(html).trim();
  // `![](http://x/image.png?123)` reads better as `[image.png](http://x/image.png)`.
  return markdown.replace(/!\[\]\((\S*)\/(\S*)\?(\S*)\)/g, '[$2]($1/$2)');
}
