import { createHash } from 'node:crypto';
import type { MessageRecord } from './contracts/messages.js';

const gravatars = new Map<string, string>();

/**
 * Zulip's default avatar (a Gravatar identicon), for clients that do not compute it (client_gravatar=false). Every
 * message of a history page and every queue a message reaches carries its sender's: the digest is kept per address.
 */
export function gravatarUrl(email: string, version = 1): string {
  let url = gravatars.get(email);
  if (url === undefined) {
    const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
    url = `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;
    if (gravatars.size >= 10_000) gravatars.clear();
    gravatars.set(email, url);
  }
  // Messages always ask for version 1 (the cached string itself); a person's later versions only change the tail.
  return version === 1 ? url : `${url.slice(0, -1)}${version}`;
}

/** How one client reads messages (its register or GET /messages parameters). */
export interface MessageView {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** What a channel message's empty topic is shown as, or null when the client shows the empty topic itself. */
  emptyTopicAs: string | null;
}

/**
 * Zulip's MessageDict.finalize_payload: a message record as one client reads it — content per `apply_markdown`,
 * avatar per `client_gravatar`, the empty topic per `empty_topic_name` — the same for GET /messages (messaging) and
 * message events (the events service). Written field by field: a history page builds fifty of these and a message
 * to a large channel one per queue, and object rest and spread copy through a slow generic path.
 */
export function messageForClient(record: MessageRecord, view: MessageView): Record<string, unknown> {
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
    // Zulip's get_avatar_field: an uploaded avatar always, the Gravatar one only for clients that cannot compute it.
    avatar_url:
      record.sender_avatar_url !== undefined
        ? record.sender_avatar_url
        : view.clientGravatar
          ? null
          : gravatarUrl(record.sender_email),
    content: view.applyMarkdown ? record.rendered_content : record.content,
    content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown',
    subject:
      record.type === 'stream' && record.subject === '' && view.emptyTopicAs !== null
        ? view.emptyTopicAs
        : record.subject,
  };
  if (record.stream_id !== undefined) dict.stream_id = record.stream_id;
  return dict;
}

/**
 * A reaction type as Zulip's clients know it: Confab calls Zulip's `zulip_extra_emoji` `service_extra_emoji`
 * (libs/markdown, messaging's store and the reaction contracts), and the apps fail to parse any name but Zulip's.
 */
export function reactionTypeOnWire(type: string): string {
  return type === 'service_extra_emoji' ? 'zulip_extra_emoji' : type;
}
