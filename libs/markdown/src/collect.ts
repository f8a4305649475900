import type { Token } from 'markdown-it';
import type { ResolvedContext } from './context.js';
import type { GroupMention, UserMention } from './inline/mentions.js';
import type { RenderResult } from './types.js';
import { uploadPathOf } from './urls.js';

type Collected = Omit<RenderResult, 'html' | 'isMeMessage' | 'hasImage' | 'linksForPreview'>;

/**
 * Walks the parsed tokens once: silences mentions inside quotes (as Zulip does) and gathers the
 * mentioned ids, wildcards and links that the messaging service stores with the message.
 */
export function collect(tokens: readonly Token[], context: ResolvedContext): Collected {
  const mentioned = new Set<number>();
  const silent = new Set<number>();
  const groups = new Set<number>();
  const uploads = new Set<string>();
  const wildcards = { channel: false, topic: false };
  let hasLink = false;
  let quoteDepth = 0;

  for (const block of tokens) {
    if (block.type === 'blockquote_open') quoteDepth++;
    if (block.type === 'blockquote_close') quoteDepth--;
    if (block.type !== 'inline' || block.children === null) continue;
    for (const token of block.children) {
      if (token.type === 'zulip_user_mention') {
        const mention = (token.meta as { mention: UserMention }).mention;
        if (quoteDepth > 0) mention.silent = true;
        if (mention.kind === 'user') {
          (mention.silent ? silent : mentioned).add(mention.user.id);
        } else if (!mention.silent) {
          wildcards[mention.kind === 'topic-wildcard' ? 'topic' : 'channel'] = true;
        }
      } else if (token.type === 'zulip_group_mention') {
        const mention = (token.meta as { mention: GroupMention }).mention;
        if (quoteDepth > 0) mention.silent = true;
        if (!mention.silent) groups.add(mention.group.id);
      } else if (token.type === 'zulip_channel_link') {
        hasLink = true;
      } else if (token.type === 'link_open') {
        hasLink = true;
        const href = String(token.attrGet('href') ?? '');
        const upload = uploadPathOf(href, context.realmUrl);
        if (upload !== undefined) uploads.add(upload);
      }
    }
  }
  for (const id of mentioned) silent.delete(id);
  return {
    mentionedUserIds: [...mentioned],
    silentlyMentionedUserIds: [...silent],
    mentionedGroupIds: [...groups],
    wildcard: wildcards.channel ? 'channel' : wildcards.topic ? 'topic' : null,
    wildcards,
    linkedUploadPaths: [...uploads],
    hasLink,
    hasAttachment: uploads.size > 0,
  };
}
