/** Bits of a user's message flags, named as Zulip names its UserMessage flags. */
export const FLAG = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  group_mentioned: 64,
  has_alert_word: 128,
  historical: 256,
  is_private: 512,
} as const;

export type FlagName = keyof typeof FLAG;

/** Flags clients see, in Zulip's order (is_private is internal to the index, as in Zulip). */
export const VISIBLE_FLAGS: readonly FlagName[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'has_alert_word',
  'historical',
];

/** The bits of the two wildcard mentions, which older clients see as the deprecated `wildcard_mentioned`. */
export const WILDCARD_MENTION_BITS = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/**
 * The flags Zulip counts as a mention of the user (UserMessage.where_active_push_notification's mention part,
 * get_mentions_for_message_updates, the `is:mentioned` narrow): alert words are not among them.
 */
export const MENTION_BITS = FLAG.mentioned | WILDCARD_MENTION_BITS | FLAG.group_mentioned;

/** The API's flag list, with the deprecated `wildcard_mentioned` for older clients (as Zulip adds it). */
export function flagNames(bits: number): string[] {
  const names: string[] = VISIBLE_FLAGS.filter((name) => (bits & FLAG[name]) !== 0);
  if (bits & WILDCARD_MENTION_BITS) names.push('wildcard_mentioned');
  return names;
}

/** Flags a user may change with POST /messages/flags (Zulip's non-API flags are refused). */
export const EDITABLE_FLAGS: readonly FlagName[] = ['read', 'starred', 'collapsed'];
