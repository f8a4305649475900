import type { contracts } from '@confab/events';

/** The sender of the messages of these tests. */
export const SENDER = 1;

/** A channel message as message.sent carries it. */
export const channelMessage: contracts.MessageRecord = {
  id: 10,
  type: 'stream',
  sender_id: SENDER,
  sender_email: 's@example.com',
  sender_full_name: 'Sender',
  sender_realm_str: 'zulip',
  recipient_id: 5,
  stream_id: 7,
  display_recipient: 'general',
  subject: 'lunch',
  topic_links: [],
  content: 'hi @**B**',
  rendered_content: '<p>hi</p>',
  timestamp: 1_700_000_000,
  client: 'test',
  is_me_message: false,
  reactions: [],
  submessages: [],
};
