import type { StoredMessage } from '../domain/types.js';

/** A message as the messages table (joined with its recipient, for direct messages' participants) stores it. */

/** The columns of `MessageRow`, of messages `m` joined with recipients `r`. */
export const MESSAGE_COLUMNS = `m.id, m.realm_id, m.sender_id, m.recipient_id, m.channel_id, m.topic, m.content, m.rendered_content,
  m.date_sent, m.sending_client, m.is_me_message, m.has_attachment, m.has_image, m.has_link, m.last_edit_time, m.has_submessages, r.dm_key`;

export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: Date;
  sending_client: string;
  is_me_message: boolean;
  has_attachment: boolean;
  has_image: boolean;
  has_link: boolean;
  last_edit_time: Date | null;
  has_submessages: boolean;
  dm_key: string | null;
}

/** A row as the domain's stored message. */
export function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    realmId: row.realm_id,
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    channelId: row.channel_id,
    topic: row.topic,
    content: row.content,
    renderedContent: row.rendered_content,
    dateSent: row.date_sent,
    sendingClient: row.sending_client,
    isMeMessage: row.is_me_message,
    hasAttachment: row.has_attachment,
    hasImage: row.has_image,
    hasLink: row.has_link,
    lastEditTime: row.last_edit_time,
    hasSubmessages: row.has_submessages,
    dmUserIds: row.dm_key ? row.dm_key.split(',').map(Number) : null,
  };
}
