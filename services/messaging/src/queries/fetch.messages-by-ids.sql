-- GET /messages: the rows of the messages a narrow found.
-- Written by services/messaging/test/queries.spec.ts (pnpm --filter @confab/messaging queries); do not edit.

SELECT m.id, m.realm_id, m.sender_id, m.recipient_id, m.channel_id, m.topic, m.content, m.rendered_content,
  m.date_sent, m.sending_client, m.is_me_message, m.has_attachment, m.has_image, m.has_link, m.last_edit_time, m.has_submessages, r.dm_key FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.id = ANY($1::int[]) ORDER BY m.id;
