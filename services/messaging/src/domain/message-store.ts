import type { OutboxRecord } from '@confab/events';
import type { MessageQuery } from './narrow.js';
import type { SqlExecutor } from './storage.js';
import type { Reaction, ReactionType, SendFacts, StoredMessage, TopicPolicyChange } from './types.js';

/** A message about to be written: a stored message before it has an id, with its topic's lookup key. */
export type NewMessage = Omit<StoredMessage, 'id' | 'lastEditTime' | 'hasSubmessages' | 'dmUserIds'> & {
  topicKey: string;
};

/** Who receives a message and how their flags are computed (all inside the statement, no query per recipient). */
export interface Delivery {
  /** Channel messages: the channel whose active subscribers who are active users receive it. */
  channelId: number | null;
  /** Receivers besides the channel's subscribers (direct-message participants, mentioned bots). */
  extraUserIds: number[];
  baseFlags: number;
  /** Users who get the flag bit named next to them. */
  flagged: { userIds: number[]; bit: number }[];
}

/** Everything one send writes: the message, its receivers' rows, its events and the topic policies it changes. */
export interface SendWrite {
  message: NewMessage;
  delivery: Delivery;
  /** The message.sent record, whose message id, user_ids and flags the statement fills in. */
  sentEvent: OutboxRecord;
  /** Events that do not depend on the new message's id (user_topic.changed). */
  otherEvents: OutboxRecord[];
  /**
   * Events only some messages carry, completed with the new message's id at `idPath` by the statement:
   * outgoing_webhook.triggered when bots are triggered, link_previews.requested when links are to be previewed.
   */
  idEvents?: { record: OutboxRecord; idPath: '{payload,message,id}' | '{payload,message_id}' }[];
  /** Topic policies to set with the message (automatic follow or unmute). */
  policies: TopicPolicyChange[];
  /** Set the channel's first_message_id when it has none. */
  setFirstMessageId: boolean;
  /**
   * Instead of `policies`: let the statement decide the sender's automatic topic policy from the state it reads,
   * with this user_topic.changed record completed by it when the policy changes.
   */
  senderPolicy?: { follow: number; unmute: number; historyPublic: boolean; topicName: string; event: OutboxRecord };
  /**
   * The client's ids of the send (Zulip's `queue_id` and `local_id`), when it gave them: the statement records them
   * with the message, and a send that repeats them (same sender) fails with `RepeatedSend` and writes nothing.
   */
  clientIds?: { queueId: string; localId: string };
}

/** The client's ids of a send are kept this long: a retry within it is the same message. */
export const SENT_LOCAL_ID_MINUTES = 10;

/**
 * A send whose sender, `queue_id` and `local_id` an earlier send already committed with (a client retrying after
 * an error that came after the commit, such as a reset connection): nothing was written.
 */
export class RepeatedSend extends Error {
  constructor(readonly clientIds: { senderId: number; queueId: string; localId: string }) {
    super('a send repeated its queue_id and local_id');
    this.name = 'RepeatedSend';
  }
}

/** What a send wrote: the new id, its receivers with their flags, and the sender's policy if the statement set one. */
export interface SentRows {
  messageId: number;
  userIds: number[];
  flags: number[];
  /** The sender's new topic policy when the statement decided it (SendWrite.senderPolicy). */
  senderPolicy: number | null;
}

/** Where a page of a narrow starts and how far it reaches (Zulip's limit_query). */
export interface NarrowRange {
  anchor: number;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  anchoredLeft: boolean;
  anchoredRight: boolean;
}

export interface SendFactsInput {
  userId: number;
  channelId: number;
  recipientId: number;
  topicKey: string;
  historyPublic: boolean;
  mentionedUserIds: number[];
}

/** Messages and their per-user rows. Sending is the hot path: one statement writes the message and every row. */
export interface MessageStore {
  /**
   * Zulip's soft reactivation (add_missing_messages) of a user imported as long-term idle: the rows of every message
   * of their channels they lack, read, and the mark cleared, in one statement; false when the mark was gone already.
   */
  addMissingRows(userId: number): Promise<boolean>;
  /** The recipient of a direct conversation, created on first use. */
  directRecipient(realmId: number, userIds: readonly number[]): Promise<number>;
  /**
   * Commits a message with its rows and events and wakes the outbox relay: one statement, its own transaction
   * (shared with concurrent sends); with `alongside`, one plain-SQL transaction of that statement and the further
   * writes `alongside` makes, whose events it returns.
   */
  send(
    write: SendWrite,
    alongside?: (executor: SqlExecutor, messageId: number) => Promise<OutboxRecord[]>,
  ): Promise<SentRows>;
  /** The same statement inside the caller's transaction (`executor`), whose commit wakes the relay. */
  sendIn(executor: SqlExecutor, write: SendWrite): Promise<SentRows>;
  /** Several messages in the caller's transaction. */
  sendMany(writes: readonly SendWrite[], executor: SqlExecutor): Promise<SentRows[]>;
  /** What the automatic topic policies depend on, read just before sending. */
  sendFacts(input: SendFactsInput): Promise<SendFacts>;
  /** The message an earlier send with these client ids wrote (see RepeatedSend), or null when there is none. */
  sentWith(clientIds: { senderId: number; queueId: string; localId: string }): Promise<number | null>;
  /** Forgets client ids older than `before`; returns how many. */
  forgetSentLocalIds(before: Date): Promise<number>;
  messageById(id: number): Promise<StoredMessage | null>;
  /** The user's flags on a message, or null without a row. */
  userMessageFlags(userId: number, messageId: number): Promise<number | null>;
  hasMessages(recipientId: number): Promise<boolean>;
  /** Senders of the topic's messages and users who reacted to them (Zulip's participants_for_topic). */
  topicParticipants(recipientId: number, topicKey: string): Promise<number[]>;
  /** Zulip's limit_query over a narrow. */
  fetchRange(query: MessageQuery, range: NarrowRange): Promise<{ id: number; flags: number }[]>;
  /** Which of these messages match the narrow, with the user's flags. */
  fetchIds(query: MessageQuery, ids: readonly number[]): Promise<{ id: number; flags: number }[]>;
  /** The oldest unread message matching the narrow. */
  firstUnread(query: MessageQuery): Promise<number | null>;
  messagesByIds(ids: readonly number[]): Promise<StoredMessage[]>;
  /** The user's flags on each of the messages they have a row for. */
  flagsFor(userId: number, messageIds: readonly number[]): Promise<Map<number, number>>;
  /** Users with a row for any of the messages. */
  holders(messageIds: number | readonly number[]): Promise<number[]>;
  /** The user's topic policies, as Zulip's register response lists them. */
  userTopicsOf(
    userId: number,
  ): Promise<{ stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }[]>;
  /** The highest message id the user received, -1 when none. */
  maxMessageId(userId: number): Promise<number>;
  /** Ids of the user's messages with this flag bit set. */
  flaggedIds(userId: number, bit: number): Promise<number[]>;
  /** The user's unread messages, newest first, with what grouping them needs. */
  unreadRows(
    userId: number,
    limit: number,
  ): Promise<
    { messageId: number; flags: number; channelId: number | null; topic: string; dmUserIds: number[] | null }[]
  >;
  /** The user's direct conversations, most recent first. */
  recentDirectConversations(userId: number, limit: number): Promise<{ maxMessageId: number; userIds: number[] }[]>;
  /** Whether the user received any message in the topic. */
  receivedInTopic(userId: number, recipientId: number, topicKey: string): Promise<boolean>;
  /** Topics of a channel with their latest message id, newest first; only the user's received ones with `userId`. */
  topicsOf(recipientId: number, userId: number | null): Promise<{ name: string; maxId: number }[]>;
}

/** Messages inside a unit of work (MessagingStore.messages). */
export interface MessageUnit {
  /** Locks the messages' rows for a change; returns the ids of those that still exist. */
  lockMessages(messageIds: readonly number[]): Promise<number[]>;
  deleteMessages(messageIds: readonly number[]): Promise<void>;
  /** Marks the user's unread messages read (all, a channel's, or a topic's); returns their ids. */
  markRead(userId: number, scope: { recipientId?: number; topicKey?: string }): Promise<number[]>;
}

/** Reactions inside a unit of work (PlainStore.reactions). */
export interface ReactionUnit {
  /** Adds a reaction; false when the same user already reacted with the same emoji. */
  add(reaction: Reaction): Promise<boolean>;
  /** Removes the user's reaction with this emoji; returns it (with its stored name) or null. */
  remove(key: {
    messageId: number;
    userId: number;
    emojiCode: string;
    reactionType: ReactionType;
  }): Promise<Reaction | null>;
  deleteForMessages(messageIds: readonly number[]): Promise<void>;
}

/** A user's message flags inside a unit of work (PlainStore.flags). */
export interface FlagUnit {
  /** Rows for messages the user never received but acts on (Zulip's historical UserMessage rows). */
  createHistoricalRows(userId: number, messageIds: readonly number[]): Promise<void>;
  setFlag(userId: number, messageIds: readonly number[], bit: number, on: boolean): Promise<number>;
}

/** Users' topic policies inside a unit of work (PlainStore.userTopics). */
export interface UserTopicUnit {
  /** Applies the changes (policy 0 deletes the row). */
  setPolicies(changes: readonly TopicPolicyChange[], at: Date): Promise<void>;
}

/** Emoji reactions on messages. */
export interface ReactionStore {
  /** Reactions of each message, oldest first. */
  forMessages(messageIds: readonly number[]): Promise<Map<number, Reaction[]>>;
}

/** Users' visibility policies for topics (no row means "none"). */
export interface UserTopicStore {
  policy(userId: number, channelId: number, topicKey: string): Promise<number>;
  /** Users with a policy for the topic, with the topic's name as their row has it. */
  withPolicy(channelId: number, topicKey: string): Promise<{ userId: number; topicName: string }[]>;
}

/** A submessage as message dicts and events carry it (Zulip's SubMessage.get_raw_db_rows). */
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** Submessages' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface SubmessageStore {
  /** Each message's submessages, oldest first. */
  forMessages(messageIds: readonly number[]): Promise<Map<number, Submessage[]>>;
}

/** Submessages inside a unit of work (PlainStore.submessages). */
export interface SubmessageUnit {
  /** Stores it and marks its message as having submessages; its id. */
  insert(submessage: Omit<Submessage, 'id'>): Promise<number>;
  /** Users who received the message. */
  receivers(messageId: number): Promise<number[]>;
}

/** The storage read-receipt answers need (a port this domain owns; docs/architecture.md, "Data access"). */
export interface ReadReceiptSource {
  /**
   * Active users who read the message and share that they did, other than its sender, leaving out users who muted
   * the viewer and users the viewer muted; ascending.
   */
  readers(messageId: number, senderId: number, viewerId: number): Promise<number[]>;
}
