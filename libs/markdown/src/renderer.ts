import { renderEmbed, renderInlineImage, type EmbedMeta, type InlineImageMeta } from './core/inline-images.js';
import { channelNarrowHash, topicNarrowHash } from '@confab/zulip';
import type { MarkdownIt, Token } from 'markdown-it';
import type { EmojiMeta } from './core/emoji.js';
import { parseEnv } from './env.js';
import { escapeMarkup, escapeText, openTag } from './html.js';
import type { ChannelLink } from './inline/channels.js';
import type { GroupMention, UserMention } from './inline/mentions.js';
import { formatTimestamp, parseTimestamp } from './inline/timestamp.js';
import { renderInlineMath } from './math.js';
import { renderCodeBlock } from './code-block.js';
import type { StashEntry } from './stash.js';

type Rules = MarkdownIt['renderer']['rules'];

function meta<T>(token: Token, key: string): T {
  return (token.meta as Record<string, T>)[key]!;
}

function userMention({ mention }: { mention: UserMention }): string {
  const silent = mention.silent ? ' silent' : '';
  if (mention.kind === 'user') {
    const name = mention.user.fullName;
    const attrs = { class: `user-mention${silent}`, 'data-user-id': String(mention.user.id) };
    return `${openTag('span', attrs)}${escapeText(mention.silent ? name : `@${name}`)}</span>`;
  }
  const text = escapeText(mention.silent ? mention.name : `@${mention.name}`);
  if (mention.kind === 'topic-wildcard') return `${openTag('span', { class: `topic-mention${silent}` })}${text}</span>`;
  const attrs = { class: `user-mention channel-wildcard-mention${silent}`, 'data-user-id': '*' };
  return `${openTag('span', attrs)}${text}</span>`;
}

function groupMention({ group, silent }: GroupMention): string {
  const name = group.displayName ?? group.name;
  const attrs = {
    class: silent ? 'user-group-mention silent' : 'user-group-mention',
    'data-user-group-id': String(group.id),
  };
  return `${openTag('span', attrs)}${escapeText(silent ? name : `@${name}`)}</span>`;
}

function channelLink(link: ChannelLink, emptyTopicName: string): string {
  const { channel } = link;
  const base = `/${channelNarrowHash(channel)}`;
  if (link.kind === 'channel') {
    const attrs = { class: 'stream', 'data-stream-id': String(channel.id), href: base };
    return `${openTag('a', attrs)}${escapeText(`#${channel.name}`)}</a>`;
  }
  const topicHref = `/${topicNarrowHash(channel, link.topic)}`;
  // The empty topic is shown by its display name, in italics.
  const topicText = link.topic === '' ? `<em>${escapeText(emptyTopicName)}</em>` : escapeText(link.topic);
  const label = `${escapeText(`#${channel.name} > `)}${topicText}`;
  if (link.kind === 'topic') {
    const href = link.withMessageId === undefined ? topicHref : `${topicHref}/with/${link.withMessageId}`;
    return `${openTag('a', { class: 'stream-topic', 'data-stream-id': String(channel.id), href })}${label}</a>`;
  }
  return `${openTag('a', { class: 'message-link', href: `${topicHref}/near/${link.messageId}` })}${label} @ 💬</a>`;
}

function emoji(meta: EmojiMeta): string {
  const title = meta.text.slice(1, -1).replace(/_/g, ' ');
  if (meta.kind === 'image') {
    return openTag('img', { alt: meta.text, class: 'emoji', src: meta.src, title });
  }
  const attrs = { 'aria-label': title, class: `emoji emoji-${meta.code}`, role: 'img', title };
  return `${openTag('span', attrs)}${escapeText(meta.text)}</span>`;
}

function timestamp(input: string): string {
  const date = parseTimestamp(input);
  if (date === undefined) {
    return `<span class="timestamp-error">${escapeText(`Invalid time format: ${input}`)}</span>`;
  }
  return `${openTag('time', { datetime: formatTimestamp(date) })}${escapeText(input)}</time>`;
}

function listOpen(tokens: Token[], idx: number): string {
  const token = tokens[idx]!;
  const attrs = Object.fromEntries((token.attrs ?? []).map(([k, v]) => [k, String(v)]));
  // In a tight item Zulip writes a nested list right after the item's text.
  return `${openTag(token.tag, attrs)}\n`;
}

function cellOpen(tokens: Token[], idx: number): string {
  const token = tokens[idx]!;
  const style = token.attrGet('style');
  const align = typeof style === 'string' ? /text-align:(\w+)/.exec(style)?.[1] : undefined;
  return openTag(token.tag, { style: align === undefined ? undefined : `text-align: ${align};` });
}

/** Zulip's HTML for every token type this library produces. */
export function installRenderer(md: MarkdownIt): void {
  const rules: Rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  rules.code_inline = (tokens, idx) => `<code>${escapeMarkup(tokens[idx]!.content)}</code>`;
  rules.code_block = (tokens, idx) => `${renderCodeBlock(undefined, tokens[idx]!.content)}\n`;
  rules.softbreak = () => '<br>\n';
  rules.hardbreak = () => '<br>\n';
  rules.link_open = (tokens, idx) =>
    openTag('a', Object.fromEntries((tokens[idx]!.attrs ?? []).map(([k, v]) => [k, String(v)])));
  rules.bullet_list_open = listOpen;
  rules.ordered_list_open = listOpen;
  rules.th_open = cellOpen;
  rules.td_open = cellOpen;
  rules.zulip_entity = (tokens, idx) => tokens[idx]!.content;
  rules.zulip_math = (tokens, idx) => renderInlineMath(tokens[idx]!.content);
  rules.zulip_timestamp = (tokens, idx) => timestamp(tokens[idx]!.content);
  rules.zulip_user_mention = (tokens, idx) => userMention({ mention: meta<UserMention>(tokens[idx]!, 'mention') });
  rules.zulip_group_mention = (tokens, idx) => groupMention(meta<GroupMention>(tokens[idx]!, 'mention'));
  rules.zulip_emoji = (tokens, idx) => emoji(tokens[idx]!.meta as EmojiMeta);
  rules.zulip_channel_link = (tokens, idx, _options, env) =>
    channelLink(meta<ChannelLink>(tokens[idx]!, 'link'), parseEnv(env).context.emptyTopicDisplayName);
  rules.zulip_inline_image = (tokens, idx) => renderInlineImage(meta<InlineImageMeta>(tokens[idx]!, 'image'));
  rules.zulip_embed = (tokens, idx) => renderEmbed(meta<EmbedMeta>(tokens[idx]!, 'embed'));
  rules.zulip_stash = (tokens, idx) => {
    const entry = meta<StashEntry>(tokens[idx]!, 'entry');
    return entry.block ? `${entry.html}\n` : `<p>${entry.html}</p>\n`;
  };
}
