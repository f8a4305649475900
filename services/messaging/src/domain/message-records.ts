import { messageForClient, reactionTypeOnWire, type contracts } from '@confab/events';
import { topicLinks, type Linkifier } from '@confab/markdown';
import { flagNames } from '@confab/zulip';
import type { Reaction, Realm, StoredMessage, User } from './types.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function displayRecipientUsers(users: readonly User[]): contracts.MessageRecord['display_recipient'] {
  return [...users]
    .sort((a, b) => a.id - b.id)
    .map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false }));
}

/** The parts of a message dict every reader sees the same way. */
export function messageRecord(
  message: StoredMessage,
  sender: Pick<User, 'id' | 'email' | 'fullName'> & { avatarUrl?: string | null },
  realm: Realm,
  displayRecipient: contracts.MessageRecord['display_recipient'],
  reactions: readonly Reaction[],
  /** Zulip's topic_links: the topic's linkifier matches and URLs (channel messages). */
  topicLinks: contracts.MessageRecord['topic_links'] = [],
): contracts.MessageRecord {
  const record: contracts.MessageRecord = {
    id: message.id,
    type: message.channelId === null ? 'private' : 'stream',
    sender_id: sender.id,
    sender_email: sender.email,
    sender_full_name: sender.fullName,
    sender_realm_str: realm.stringId,
    recipient_id: message.recipientId,
    display_recipient: displayRecipient,
    subject: message.topic,
    topic_links: topicLinks,
    content: message.content,
    rendered_content: message.renderedContent,
    timestamp: seconds(message.dateSent),
    client: message.sendingClient,
    is_me_message: message.isMeMessage,
    reactions: reactions.map(reactionDict),
    submessages: [],
  };
  if (message.channelId !== null) record.stream_id = message.channelId;
  if (sender.avatarUrl) record.sender_avatar_url = sender.avatarUrl;
  return record;
}

/** Topic links of many messages' topics, each topic worked out once. */
export function topicLinker(
  linkifiers: readonly Linkifier[],
): (topic: string) => contracts.MessageRecord['topic_links'] {
  const known = new Map<string, contracts.MessageRecord['topic_links']>();
  return (topic) => {
    let links = known.get(topic);
    if (!links) {
      links = topicLinks(linkifiers, topic);
      known.set(topic, links);
    }
    return links;
  };
}

export function reactionDict(r: Reaction) {
  return {
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: reactionTypeOnWire(r.reactionType),
    user_id: r.userId,
  };
}

export interface ClientOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

/** A message dict as GET /messages returns it to one user: `messageForClient`, with their flags. */
export function clientMessage(
  record: contracts.MessageRecord,
  flags: number,
  realm: Realm,
  options: ClientOptions,
  extra: { lastEditTime: Date | null },
): Record<string, unknown> {
  const dict = messageForClient(record, {
    applyMarkdown: options.applyMarkdown,
    clientGravatar: options.clientGravatar,
    emptyTopicAs: options.allowEmptyTopicName ? null : realm.emptyTopicDisplayName,
  });
  dict.flags = flagNames(flags);
  if (extra.lastEditTime) dict.last_edit_timestamp = seconds(extra.lastEditTime);
  return dict;
}
