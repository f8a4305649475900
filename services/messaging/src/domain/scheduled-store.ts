/** A scheduled message as stored: pending until delivered (or failed); `version` guards concurrent changes. */
export interface StoredScheduledMessage {
  id: number;
  realmId: number;
  senderId: number;
  type: 'stream' | 'private';
  channelId: number | null;
  userIds: number[];
  topic: string;
  content: string;
  renderedContent: string;
  scheduledAt: Date;
  readBySender: boolean | null;
  sendingClient: string;
  delivered: boolean;
  deliveredMessageId: number | null;
  failed: boolean;
  failureMessage: string | null;
  version: number;
}

export type NewScheduledMessage = Pick<
  StoredScheduledMessage,
  | 'realmId'
  | 'senderId'
  | 'type'
  | 'channelId'
  | 'userIds'
  | 'topic'
  | 'content'
  | 'renderedContent'
  | 'scheduledAt'
  | 'readBySender'
  | 'sendingClient'
>;

export type ScheduledMessageChange = Partial<
  Pick<
    StoredScheduledMessage,
    'type' | 'channelId' | 'userIds' | 'topic' | 'content' | 'renderedContent' | 'scheduledAt' | 'sendingClient'
  >
>;
