import MarkdownItParser, { type MarkdownIt, type StateBlock } from 'markdown-it';
import { blockquote } from './block/blockquote.js';
import { list } from './block/list.js';
import { paragraph } from './block/paragraph.js';
import { stashBlock } from './block/stash-block.js';
import { emojiNames, emoticons, unicodeEmoji } from './core/emoji.js';
import { inlineImages } from './core/inline-images.js';
import { autolink } from './inline/autolink.js';
import { channelLink } from './inline/channels.js';
import { codeSpan } from './inline/code.js';
import { emphasis, strikethrough } from './inline/emphasis.js';
import { entity } from './inline/entity.js';
import { link } from './inline/links.js';
import { linkifier } from './inline/linkifier.js';
import { inlineMath } from './inline/math.js';
import { groupMention, userMention } from './inline/mentions.js';
import { newline, text } from './inline/text.js';
import { timestamp } from './inline/timestamp.js';
import { installRenderer } from './renderer.js';

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

function tableRule(md: MarkdownIt): BlockRule {
  const rule = md.block.ruler.__rules__.find((r) => r.name === 'table');
  if (rule === undefined) throw new Error('markdown-it has no table rule');
  return rule.fn;
}

/** A markdown-it instance configured as Zulip's Markdown dialect. */
export function createEngine(): MarkdownIt {
  // Raw HTML is never passed through; every newline is a line break.
  const md = new MarkdownItParser('default', { html: false, breaks: true, linkify: false, typographer: false });

  md.core.ruler.disable(['linkify', 'replacements', 'smartquotes']);
  md.core.ruler.after('inline', 'zulip_emoji_names', emojiNames);
  md.core.ruler.after('zulip_emoji_names', 'zulip_emoticons', emoticons);
  md.core.ruler.after('zulip_emoticons', 'zulip_unicode_emoji', unicodeEmoji);
  md.core.ruler.after('zulip_unicode_emoji', 'zulip_inline_images', inlineImages);

  // Fences are handled by the preprocessor; setext headings and reference links do not exist in Zulip.
  md.block.ruler.disable(['fence', 'lheading', 'reference', 'html_block']);
  md.block.ruler.at('blockquote', blockquote, { alt: ['paragraph', 'blockquote', 'list'] });
  md.block.ruler.at('list', list, { alt: ['paragraph', 'blockquote'] });
  md.block.ruler.at('paragraph', paragraph);
  // A table must start a block: it cannot interrupt a paragraph.
  md.block.ruler.at('table', tableRule(md), { alt: [] });
  md.block.ruler.before('table', 'zulip_stash', stashBlock, { alt: ['paragraph', 'blockquote', 'list'] });

  // Zulip's own inline syntax replaces CommonMark's emphasis, code, links, escapes and autolinks.
  md.inline.ruler.disable(['linkify', 'escape', 'backticks', 'strikethrough', 'emphasis', 'link', 'image']);
  md.inline.ruler.disable(['autolink', 'html_inline', 'entity']);
  md.inline.ruler2.disable(['strikethrough', 'emphasis']);
  md.inline.ruler.at('text', text);
  md.inline.ruler.at('newline', newline);
  md.inline.ruler.before('text', 'zulip_code', codeSpan);
  md.inline.ruler.before('text', 'zulip_user_mention', userMention);
  md.inline.ruler.before('text', 'zulip_math', inlineMath);
  md.inline.ruler.before('text', 'zulip_channel_link', channelLink);
  md.inline.ruler.before('text', 'zulip_timestamp', timestamp);
  md.inline.ruler.before('text', 'zulip_group_mention', groupMention);
  md.inline.ruler.before('text', 'zulip_link', link);
  md.inline.ruler.before('text', 'zulip_autolink', autolink);
  // Zulip applies linkifiers after links and bare URLs, before entities and emphasis.
  md.inline.ruler.before('text', 'zulip_linkifier', linkifier);
  md.inline.ruler.before('text', 'zulip_entity', entity);
  md.inline.ruler.before('text', 'zulip_emphasis', emphasis);
  md.inline.ruler.before('text', 'zulip_strikethrough', strikethrough);

  installRenderer(md);
  return md;
}
