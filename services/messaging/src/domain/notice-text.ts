import type { User } from './types.js';

/** Pieces of the Markdown the Notification Bot writes (Zulip's mention and timestamp syntax). */

/** Zulip's silent_mention_syntax_for_user. */
export const silentMention = (user: Pick<User, 'id' | 'fullName'>) => `@_**${user.fullName}|${user.id}**`;

/** Zulip's get_user_mentions_for_display: silent mentions as a list ("A, B, and C"). */
export function mentionList(users: readonly Pick<User, 'id' | 'fullName'>[]): string {
  const mentions = users.map(silentMention);
  if (mentions.length <= 2) return mentions.join(' and ');
  return `${mentions.slice(0, -1).join(', ')}, and ${mentions[mentions.length - 1]}`;
}

/** Zulip's datetime_to_global_time: a `<time:…>` every reader sees in their own time zone. */
export const globalTime = (at: Date) => `<time:${at.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
