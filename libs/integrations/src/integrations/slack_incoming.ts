import { InvalidJsonError, WebhookResponse, type Integration, type Json, type WebhookRequest } from '../framework.js';
import { missingArgument } from '@confab/errors';
import { PY_NON_WORD, pyStrip } from '../toolkit/pyjson.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { int, list, str } from '../toolkit/wild.js';
import { dict, oneOf, url } from '../toolkit/validators.js';

/**
 * Slack-compatible incoming webhooks (zerver/webhooks/slack_incoming): what a tool built for Slack's incoming
 * webhook URLs posts — `text`, Block Kit `blocks` and legacy `attachments` — as Markdown, with Slack's `<url|label>`
 * links and its `*bold*` and `_italic_` turned into Zulip's. The topic is the URL's, else the payload's `channel`
 * without its `#`/`@`, else the empty topic. The answer is Zulip's success with Slack's `"ok": true`.
 */

/** WildValue's `key in value`. */
const has = (value: Json, key: string) => key in dict(value);

/** Zulip's check_text_block: a dict with `type` plain_text (or also mrkdwn) and a string `text`; its text. */
function textBlock(value: unknown, plainTextOnly = false): string {
  const block = dict(value);
  oneOf(block.type, plainTextOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return str(block.text);
}

/** Pieces joined by blank lines, each stripped, empty ones left out. */
const joinPieces = (pieces: readonly string[]) =>
  pieces
    .map(pyStrip)
    .filter((piece) => piece !== '')
    .join('\n\n');

function renderBlockElement(element: Json): string {
  // Zulip has no interactive elements: only images are rendered.
  if (str(dict(element).type) !== 'image') return '';
  return `[${str(element.alt_text)}](${url(element.image_url)})`;
}

function renderBlock(block: Json): string {
  const type = oneOf(dict(block).type, ['actions', 'context', 'divider', 'header', 'image', 'input', 'section']);
  switch (type) {
    case 'context': {
      if (!pyTruthy(block.elements)) return '';
      // Slack packs these left to right; above each other reads as well.
      const pieces = list(block.elements).map((element: Json) =>
        oneOf(dict(element).type, ['image', 'plain_text', 'mrkdwn']) === 'image'
          ? renderBlockElement(element)
          : textBlock(element),
      );
      return joinPieces(pieces);
    }
    case 'divider':
      return '----';
    case 'header':
      return '## ' + textBlock(block.text, true);
    case 'image': {
      const imageUrl = url(block.image_url);
      let altText = str(block.alt_text);
      if ('title' in block) altText = textBlock(block.title, true);
      return `[${altText}](${imageUrl})`;
    }
    case 'section': {
      const pieces: string[] = [];
      if ('text' in block) pieces.push(textBlock(block.text));
      if ('accessory' in block) pieces.push(renderBlockElement(block.accessory));
      if ('fields' in block) {
        const fields = list(block.fields).map((field) => textBlock(field));
        if (fields.length === 1) {
          // One field reads better without a table's borders and limits.
          pieces.push(fields[0]!);
        } else {
          // A table cell can hold neither a newline nor an escaped pipe. Slack shows two columns without a header,
          // hence the blank header row.
          const cells = fields.map((f) => f.replaceAll('\n', ' ').replaceAll('|', ' '));
          let table = '| | |\n|-|-|\n';
          for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
          pieces.push(table);
        }
      }
      return joinPieces(pieces);
    }
    default:
      // actions and input are interactive: nothing to show.
      return '';
  }
}

function renderAttachment(attachment: Json): string {
  // Slack's legacy attachment fields, each optional and possibly null.
  const a = dict(attachment);
  const pieces: string[] = [];
  if (pyTruthy(a.title)) {
    const title = str(a.title);
    pieces.push(pyTruthy(a.title_link) ? `## [${title}](${url(a.title_link)})` : `## ${title}`);
  }
  if (pyTruthy(a.pretext)) pieces.push(str(a.pretext));
  if (pyTruthy(a.text)) pieces.push(str(a.text));
  if ('fields' in a) {
    const fields: string[] = [];
    for (const field of iterate(a.fields)) {
      const f = dict(field);
      if (pyTruthy(f.title) && pyTruthy(f.value)) fields.push(`*${str(f.title)}*: ${str(f.value)}`);
      else if (pyTruthy(f.title)) fields.push(`*${str(f.title)}*`);
      else if (pyTruthy(f.value)) fields.push(str(f.value));
    }
    pieces.push(fields.join('\n'));
  }
  if (pyTruthy(a.blocks)) pieces.push(...iterate(a.blocks).map(renderBlock));
  if (pyTruthy(a.image_url)) pieces.push(`[](${url(a.image_url)})`);
  if (pyTruthy(a.footer)) pieces.push(str(a.footer));
  if (pyTruthy(a.ts)) pieces.push(`<time:${int(a.ts)}>`);
  return joinPieces(pieces);
}

/** Iterating a WildValue: a list's items, a dict's keys (which then fail as blocks), a string's characters. */
function iterate(value: Json): Json[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return Array.from(value);
  return Object.keys(dict(value));
}

/** Slack's `<https://…|label>` links as Markdown links. */
export function replaceLinks(text: string): string {
  return text.replace(/<([\p{L}\p{N}_]+?:\/\/.*?)\|(.*?)>/gu, '[$2]($1)');
}

const SLACK_BOLD = new RegExp(`(${PY_NON_WORD}|^)\\*(?!\\s+)([^*\\n]+)(?<!\\s)\\*((?=${PY_NON_WORD})|$)`, 'gu');
const SLACK_ITALIC = new RegExp(`(${PY_NON_WORD}|^)_(?!\\s+)([^_\\n]+)(?<!\\s)_((?=${PY_NON_WORD})|$)`, 'gu');

/** Slack's `*bold*` is Zulip's `**bold**`, its `_italic_` Zulip's `*italic*`. */
export function replaceFormatting(text: string): string {
  return text.replace(SLACK_BOLD, '$1**$2**$3').replace(SLACK_ITALIC, '$1*$2*$3');
}

/** The payload: the JSON body, or the `payload` field of a form (Slack takes both). */
function slackPayload(request: WebhookRequest): Json {
  const mime = request.contentType.split(';')[0]!.trim();
  if (mime === 'application/json') return request.json();
  const text = request.params.get('payload');
  if (text === undefined) throw missingArgument('payload');
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError();
  }
}

export const slack_incoming: Integration = {
  name: 'slack_incoming',
  webhookName: 'SlackIncoming',
  handle(request) {
    const payload = slackPayload(request);
    let topic = request.params.get('topic');
    if (topic === undefined && has(payload, 'channel')) topic = str(payload.channel).replace(/^[@#]/u, '');
    topic ??= '(no topic)';

    const pieces: string[] = [];
    if (pyTruthy(payload.blocks)) pieces.push(...iterate(payload.blocks).map(renderBlock));
    if (pyTruthy(payload.attachments)) pieces.push(...iterate(payload.attachments).map(renderAttachment));
    let body = joinPieces(pieces);
    if (body === '' && pyTruthy(payload.text)) {
      if (pyTruthy(payload.icon_emoji)) body = str(payload.icon_emoji) + ' ';
      body = pyStrip(body + str(payload.text));
    }
    const messages = body === '' ? [] : [{ topic, content: replaceFormatting(pyStrip(replaceLinks(body))) }];
    // Slack's own answer carries `"ok": true`, which tools written for Slack check.
    return new WebhookResponse(200, { ok: true }, undefined, messages);
  },
};
