/** A send as the route (or a server-side sender) hands it over: the parameters of POST /messages. */
export interface SendInput {
  type: 'direct' | 'private' | 'stream' | 'channel';
  to: string | undefined;
  topic: string | undefined;
  content: string;
  queueId: string | undefined;
  localId: string | undefined;
  readBySender: boolean | undefined;
  client: string;
  /** Notices the server posts (edit-notices.ts): users for whom the message arrives read. */
  readBy?: readonly number[];
  /**
   * An outgoing webhook bot's reply to the conversation that triggered it (Zulip's skip_stream_access_check): it may
   * post there without the channel permissions a send needs. Honoured only for outgoing webhook bots.
   */
  skipChannelAccessCheck?: boolean;
}
