import { ConfabError, invalid } from '@confab/errors';
import type { Integration } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';

/**
 * Slack's outgoing webhooks (zerver/webhooks/slack, its legacy payload): each message of a Slack channel as
 * "**user**: text", Slack's formatting and links made Markdown. By default in the topic "Message from Slack";
 * `channels_map_to_topics=1` makes the topic "channel: <name>", and `0` posts to the Zulip channel named like the
 * Slack one (over the URL's `stream`). Slack's Events API (a JSON body) is not supported.
 */

/**
 * Zulip's SLACK_BOLD/ITALIC/STRIKETHROUGH_REGEX (zerver/data_import/slack_message_conversion.py): the mark between
 * punctuation, spaces, symbols or line ends, not inside words, not next to a backquote, `@` or backslash, nor inside
 * closing/opening quotes and brackets.
 */
function slackMark(mark: string): RegExp {
  const m = mark.replace(/[*]/g, '\\*');
  return new RegExp(
    `((?![${m}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}]|^)(${m})([^${m}]+)(${m})` +
      `((?![${m}\`@\\\\\\p{Pi}\\p{Ps}])(?=[\\p{P}\\p{Zs}\\p{S}]|$))`,
    'gmu',
  );
}
const SLACK_BOLD = slackMark('*');
const SLACK_STRIKETHROUGH = slackMark('~');
const SLACK_ITALIC = slackMark('_');

/** Zulip's convert_slack_formatting: `*bold*`, `~strike~` and `_italic_` as Zulip's Markdown, in that order. */
export function convertSlackFormatting(text: string): string {
  const convert = (t: string, pattern: RegExp, keyword: string) =>
    t.replace(pattern, (_whole, before: string, _open, inner: string) => `${before}${keyword}${inner}${keyword}`);
  return convert(convert(convert(text, SLACK_BOLD, '**'), SLACK_STRIKETHROUGH, '~~'), SLACK_ITALIC, '*');
}

/** Zulip's LINK_REGEX: `<http://foo.com>` and `<https://foo.com/x|label>` (lower-case hosts with a TLD). */
const SLACK_LINK =
  /(<)(http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?([a-z0-9]+([-.]{1}[a-z0-9]+)*)(\.)([a-z]{2,63}(:[0-9]{1,5})?)(\/[^>]*)?(\|)?(?:\|([^>]+))?(>)/g;
/** Zulip's SLACK_MAILTO_REGEX (Python's `\w` is any letter, digit or `_`). */
const SLACK_MAILTO =
  /<((mailto:)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+))(\|)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+)?>/gu;

/** Python's str.replace: every occurrence. */
const replaceAll = (text: string, from: string, to: string) => text.split(from).join(to);

/**
 * Zulip's replace_links (convert_link_format, then convert_mailto_format): `<url|label>` as `[label](url)`, `<url>`
 * as the URL, `<mailto:a@b.c|a@b.c>` as `mailto:a@b.c`. The matches are found in the text as it was, and each is
 * replaced wherever it occurs, as Zulip's loops do.
 */
export function slackReplaceLinks(text: string): string {
  let out = text;
  for (const match of text.matchAll(SLACK_LINK)) {
    const parts = match[0].slice(1, -1);
    const pipe = parts.indexOf('|');
    out = replaceAll(out, match[0], pipe === -1 ? parts : `[${parts.slice(pipe + 1)}](${parts.slice(0, pipe)})`);
  }
  const linked = out;
  for (const match of linked.matchAll(SLACK_MAILTO)) out = replaceAll(out, match[0], match[1]!);
  return out;
}

export const slack: Integration = {
  name: 'slack',
  webhookName: 'Slack',
  notifyOnInvalidJson: false,
  handle(request) {
    // Zulip reads a JSON body as Slack's Events API, whose messages it names by asking Slack's API with the URL's
    // slack_app_token: not done here (the translation makes no requests), so it is refused plainly.
    if (request.contentType.split(';')[0]!.trim() === 'application/json') {
      throw new ConfabError("Slack's Events API is not available on this server yet", { status: 501 });
    }
    const userName = requiredParam(request, 'user_name');
    const text = requiredParam(request, 'text');
    const channelName = requiredParam(request, 'channel_name');
    const mapping = request.params.get('channels_map_to_topics');
    const content = `**${userName}**: ${slackReplaceLinks(convertSlackFormatting(text))}`;
    if (mapping === undefined) return { topic: 'Message from Slack', content };
    // The URL's topic, when it has one, still wins over the channel's (the framework's rule).
    if (mapping === '1') return { topic: `channel: ${channelName}`, content };
    if (mapping === '0') return { topic: 'Message from Slack', content, stream: channelName };
    throw invalid('Error: channels_map_to_topics parameter other than 0 or 1');
  },
};
