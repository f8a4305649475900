import { gravatarUrl, type contracts } from '@confab/events';

/**
 * What a phone decrypts (Zulip's mobile notification payloads, zerver/lib/push_notifications.py; parsed by the Zulip
 * Flutter app's NotifPayload in lib/api/notifications.dart): a new message, or the removal of notifications of
 * messages the user has read.
 */

/** Who a notification is for: the organization's URL and name, and the user's id there. */
export interface NotificationIdentity {
  realmUrl: string;
  realmName: string | null;
  userId: number;
}

function identity(who: NotificationIdentity): Record<string, unknown> {
  return {
    realm_url: who.realmUrl,
    // The realm_uri of servers before feature level 257, which Zulip still sends.
    realm_uri: who.realmUrl,
    ...(who.realmName === null ? {} : { realm_name: who.realmName }),
    user_id: who.userId,
  };
}

/** The organization's URL (its subdomain on the server's external URL), as the settings service writes it. */
export function realmUrlOf(stringId: string, externalUrl: string): string {
  if (stringId === '') return externalUrl.replace(/\/+$/, '');
  const url = new URL(externalUrl);
  url.hostname = `${stringId}.${url.hostname}`;
  return url.toString().replace(/\/+$/, '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/** Longest content a notification carries, in characters (Zulip's get_mobile_push_content truncation). */
export const PUSH_CONTENT_LIMIT = 200;

/**
 * The message's rendered HTML as the plain text a notification shows (after Zulip's get_mobile_push_content): tags
 * dropped, block ends as line breaks, images as "(image)", entities decoded, at most 200 characters ("…" when cut).
 */
export function pushContent(renderedHtml: string): string {
  const text = renderedHtml
    .replace(/<img[^>]*>/gi, '(image)')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => {
      const known = ENTITIES[name.toLowerCase()];
      if (known !== undefined) return known;
      if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
      if (/^#x[0-9a-f]+$/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
      return whole;
    })
    .replace(/\n{2,}/g, '\n')
    .trim();
  const chars = [...text];
  return chars.length > PUSH_CONTENT_LIMIT ? `${chars.slice(0, PUSH_CONTENT_LIMIT - 1).join('')}…` : text;
}

/** Zulip's payload of type "message" for one receiver of the message. */
export function messagePayload(
  who: NotificationIdentity,
  message: contracts.MessageRecord,
  senderAvatarUrl?: string,
): Record<string, unknown> {
  const base = {
    ...identity(who),
    type: 'message',
    sender_id: message.sender_id,
    sender_avatar_url: senderAvatarUrl ?? gravatarUrl(message.sender_email),
    sender_full_name: message.sender_full_name,
    message_id: message.id,
    time: message.timestamp,
    content: pushContent(message.rendered_content),
  };
  if (message.type === 'stream') {
    return {
      ...base,
      recipient_type: 'channel',
      channel_id: message.stream_id,
      channel_name: typeof message.display_recipient === 'string' ? message.display_recipient : '',
      topic: message.subject,
    };
  }
  const participants = Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];
  const all = [...new Set([...participants, message.sender_id, who.userId])].sort((a, b) => a - b);
  return { ...base, recipient_type: 'direct', recipient_user_ids: all };
}

/** Zulip's payload of type "remove": the phone clears its notifications of these messages. */
export function removePayload(who: NotificationIdentity, messageIds: readonly number[]): Record<string, unknown> {
  return { ...identity(who), type: 'remove', message_ids: [...messageIds].sort((a, b) => a - b) };
}
