import { createHash } from 'node:crypto';
import type { contracts } from '@confab/events';
import { flagNames } from './flags.js';
import type { Reaction, Realm, StoredMessage, User } from './types.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

const gravatars = new Map<string, string>();

/**
 * Zulip's default avatar (Gravatar identicon), for clients that do not compute it (client_gravatar=false). Every
 * message of a history page carries its sender's: the digest is kept per address.
 */
export function gravatarUrl(email: string): string {
  let url = gravatars.get(email);
  if (url === undefined) {
    const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
    url = `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;
    if (gravatars.size >= 10_000) gravatars.clear();
    gravatars.set(email, url);
  }
  return url;
}

export function displayRecipientUsers(users: readonly User[]): contracts.MessageRecord['display_recipient'] {
  return [...users]
    .sort((a, b) => a.id - b.id)
    .map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false }));
}

/** The parts of a message dict every reader sees the same way. */
export function messageRecord(
  message: StoredMessage,
  sender: Pick<User, 'id' | 'email' | 'fullName'>,
  realm: Realm,
  displayRecipient: contracts.MessageRecord['display_recipient'],
  reactions: readonly Reaction[],
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
    topic_links: [],
    content: message.content,
    rendered_content: message.renderedContent,
    timestamp: seconds(message.dateSent),
    client: message.sendingClient,
    is_me_message: message.isMeMessage,
    reactions: reactions.map(reactionDict),
    submessages: [],
  };
  if (message.channelId !== null) record.stream_id = message.channelId;
  return record;
}

export function reactionDict(r: Reaction) {
  return { emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId };
}

export interface ClientOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

/**
 * A message dict as GET /messages returns it to one user: their flags, and content in the requested form. Written
 * field by field (a history page builds fifty of these; object rest and spread copy through the slow generic path).
 */
export function clientMessage(
  record: contracts.MessageRecord,
  flags: number,
  realm: Realm,
  options: ClientOptions,
  extra: { lastEditTime: Date | null },
): Record<string, unknown> {
  const dict: Record<string, unknown> = {
    id: record.id,
    type: record.type,
    sender_id: record.sender_id,
    sender_email: record.sender_email,
    sender_full_name: record.sender_full_name,
    sender_realm_str: record.sender_realm_str,
    recipient_id: record.recipient_id,
    display_recipient: record.display_recipient,
    topic_links: record.topic_links,
    timestamp: record.timestamp,
    client: record.client,
    is_me_message: record.is_me_message,
    reactions: record.reactions,
    submessages: record.submessages,
    avatar_url: options.clientGravatar ? null : gravatarUrl(record.sender_email),
    content: options.applyMarkdown ? record.rendered_content : record.content,
    content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
    subject:
      record.type === 'stream' && record.subject === '' && !options.allowEmptyTopicName
        ? realm.emptyTopicDisplayName
        : record.subject,
    flags: flagNames(flags),
  };
  if (record.stream_id !== undefined) dict.stream_id = record.stream_id;
  if (extra.lastEditTime) dict.last_edit_timestamp = seconds(extra.lastEditTime);
  return dict;
}
