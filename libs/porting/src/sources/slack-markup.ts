/**
 * Slack's message markup ("mrkdwn") to Zulip Markdown, by the rules of Zulip's Slack importer
 * (zerver/data_import/slack_message_conversion.py): `*bold*`, `_italic_`, `~strike~`, `<@U…>` mentions,
 * `<!channel>`/`<!here>`/`<!everyone>` wildcards, `<#C…|name>` channel links, `<url|text>` links and mailto links;
 * and Slack's blocks and attachments (bots' and integrations' messages) rendered as Zulip renders them.
 */

/** What conversion needs of a Slack user. */
export interface SlackPerson {
  id: string;
  /** Slack's `name` (the short handle). */
  name: string;
  /** The full name the user is imported with (mentions become `@**full name**`). */
  fullName: string;
}

export interface Converted {
  content: string;
  /** Slack ids of the users mentioned. */
  mentioned: string[];
  hasLink: boolean;
}

// The markers of Zulip's regexes: a mark opens after start of line, white space, punctuation or a symbol, and
// closes before the same or the end of line (Slack has no mid-word formatting).
const opener = (skip: string) => `((?![${skip}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}]|^)`;
const closer = (skip: string) => `((?![${skip}\`@\\\\\\p{Pi}\\p{Ps}])(?=[\\p{P}\\p{Zs}\\p{S}]|$))`;
const mark = (char: string) => {
  const literal = char === '*' ? '\\*' : char;
  return new RegExp(`${opener(char)}(${literal})([^${char}]+)(${literal})${closer(char)}`, 'gmu');
};

const BOLD = mark('*');
const STRIKE = mark('~');
const ITALIC = mark('_');

const CHANNEL_LINK = /<#([A-Z0-9]+)\|([^>]+)>/g;
const USER_MENTION = /<@([a-zA-Z0-9]+)(?:\|([a-zA-Z0-9]+))?>/g;
const LINK =
  /<((?:http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:\/[^>]*)?)(?:\|([^>]+))?>/g;
const MAILTO = /<((?:mailto:)?[\w.-]+@[\w.-]+(?:\.\w+)+)(?:\|[\w.-]+@[\w.-]+(?:\.\w+)+)?>/g;

function convertFormatting(text: string): string {
  const apply = (input: string, pattern: RegExp, zulip: string) =>
    input.replace(pattern, (_match, before: string, _open: string, inner: string) => `${before}${zulip}${inner}${zulip}`);
  return apply(apply(apply(text, BOLD, '**'), STRIKE, '~~'), ITALIC, '*');
}

/** Zulip's convert_to_zulip_markdown. */
export function convertSlackText(
  text: string,
  people: ReadonlyMap<string, SlackPerson>,
  channels: ReadonlyMap<string, string>,
): Converted {
  // Each rule only where its marks appear: most messages have none, and a million of them are imported at once.
  let out = /[*_~]/.test(text) ? convertFormatting(text) : text;
  const mentioned: string[] = [];
  if (!out.includes('<')) return { content: out, mentioned, hasLink: false };
  // Zulip has no "online members" mention: all three become the channel-wide wildcard.
  out = out.replaceAll('<!everyone>', '@**all**').replaceAll('<!channel>', '@**all**').replaceAll('<!here>', '@**all**');
  if (out.includes('<#'))
    out = out.replace(CHANNEL_LINK, (match, id: string, name: string) => (channels.get(id) === name ? `#**${name}**` : match));
  out = out.replace(USER_MENTION, (match, id: string, shortName: string | undefined) => {
    const person = people.get(id);
    if (!person || (shortName !== undefined && person.name !== shortName)) return match;
    mentioned.push(id);
    return `@**${person.fullName}**`;
  });
  let hasLink = false;
  out = out.replace(LINK, (_match, url: string, label: string | undefined) => {
    hasLink = true;
    return label === undefined ? url : `[${label}](${url})`;
  });
  out = out.replace(MAILTO, (_match, address: string) => {
    hasLink = true;
    return address;
  });
  return { content: out, mentioned, hasLink };
}

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const textOf = (v: unknown): string => str((v as Json | undefined)?.text);
const joinPieces = (pieces: string[]) =>
  pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');

function renderElement(element: Json): string {
  return element.type === 'image' ? `[${str(element.alt_text)}](${str(element.image_url)})` : '';
}

function renderBlock(block: Json): string {
  switch (block.type) {
    case 'context':
      return joinPieces(
        ((block.elements as Json[] | undefined) ?? []).map((e) => (e.type === 'image' ? renderElement(e) : str(e.text))),
      );
    case 'divider':
      return '----';
    case 'header':
      return `## ${textOf(block.text)}`;
    case 'image': {
      const title = block.title ? textOf(block.title) : str(block.alt_text);
      return `[${title}](${str(block.image_url)})`;
    }
    case 'section': {
      const pieces: string[] = [];
      if (block.text) pieces.push(textOf(block.text));
      if (block.accessory) pieces.push(renderElement(block.accessory as Json));
      const fields = (block.fields as Json[] | undefined) ?? [];
      if (fields.length === 1) pieces.push(str(fields[0]!.text));
      else if (fields.length > 1) {
        const cells = fields.map((f) => str(f.text).replaceAll('\n', ' ').replaceAll('|', ' '));
        let table = '| | |\n|-|-|\n';
        for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
        pieces.push(table);
      }
      return joinPieces(pieces);
    }
    // rich_text repeats the message's text; actions, calls, files, tables and inputs have no Zulip form.
    default:
      return '';
  }
}

/** Zulip's datetime_to_global_time: `<time:…>`, which clients show in the reader's time zone. */
function globalTime(seconds: number): string {
  return `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

function renderAttachment(attachment: Json): string {
  const pieces: string[] = [];
  if (attachment.title) {
    const title = str(attachment.title);
    pieces.push(attachment.title_link ? `## [${title}](${str(attachment.title_link)})` : `## ${title}`);
  }
  if (attachment.pretext) pieces.push(str(attachment.pretext));
  if (attachment.text) pieces.push(str(attachment.text));
  if (Array.isArray(attachment.fields)) {
    const fields = (attachment.fields as Json[]).flatMap((field) => {
      if (field.title && field.value) return [`*${str(field.title)}*: ${str(field.value)}`];
      if (field.title) return [`*${str(field.title)}*`];
      if (field.value) return [str(field.value)];
      return [];
    });
    pieces.push(fields.join('\n'));
  }
  if (Array.isArray(attachment.blocks)) pieces.push(...(attachment.blocks as Json[]).map(renderBlock));
  if (attachment.image_url) pieces.push(`[](${str(attachment.image_url)})`);
  if (attachment.footer) pieces.push(str(attachment.footer));
  if (attachment.ts !== undefined && attachment.ts !== null) {
    const seconds = Math.trunc(Number(attachment.ts));
    if (Number.isFinite(seconds)) pieces.push(globalTime(seconds));
  }
  return joinPieces(pieces);
}

/** Zulip's process_slack_block_and_attachment: '' when the message has none Zulip can show. */
export function slackBlocksAndAttachments(message: Json): string {
  const pieces: string[] = [];
  if (Array.isArray(message.blocks)) pieces.push(...(message.blocks as Json[]).map(renderBlock));
  if (Array.isArray(message.attachments)) pieces.push(...(message.attachments as Json[]).map(renderAttachment));
  return pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n');
}

/** Zulip's truncate_content, counting code points as Python does. */
export function truncate(content: string, max: number, marker: string): string {
  const chars = Array.from(content);
  if (chars.length <= max) return content;
  return chars.slice(0, max - Array.from(marker).length).join('') + marker;
}
