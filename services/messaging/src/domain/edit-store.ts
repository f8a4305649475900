import type { contracts } from '@confab/events';
import type { TopicPolicyChange, VisibilityPolicy } from './types.js';

/**
 * One entry of a message's edit history, as Zulip stores it (newest first): who, when, and what it replaced. A
 * content edit has `prev_content`/`prev_rendered_content`; a move has `prev_topic`/`topic` and or
 * `prev_stream`/`stream`.
 */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/** New content of the edited message, rendered. */
export interface ContentChange {
  content: string;
  renderedContent: string;
  isMeMessage: boolean;
  hasImage: boolean;
  hasLink: boolean;
}

/** Where moved messages go. */
export interface MoveTarget {
  recipientId: number;
  channelId: number;
  topic: string;
  topicKey: string;
}

/** One edit written to storage: the target message and the messages moved with it. */
export interface EditWrite {
  targetId: number;
  /** Every changed message, the target included. */
  messageIds: readonly number[];
  editTime: Date;
  content?: ContentChange;
  move?: MoveTarget;
  /** The target's history entry, and the one (topic and channel only) of the others moved with it. */
  targetEntry: EditHistoryEntry;
  othersEntry: EditHistoryEntry;
}

/** Where a message is when its edit locks it. */
export interface LockedMessage {
  channelId: number | null;
  topicKey: string;
  content: string;
  renderedContent: string;
}

/** What editing needs from storage inside its unit of work (PlainStore.edits). */
export interface EditUnit {
  /** Locks the message against concurrent edits and deletion; null when it no longer exists. */
  lock(messageId: number): Promise<LockedMessage | null>;
  /**
   * Ids of a channel topic's messages, ascending: from `fromId` on, only those `receivedBy` received when given, and
   * at most `limit` of them.
   */
  topicMessageIds(
    recipientId: number,
    topicKey: string,
    options: { fromId?: number; receivedBy?: number; limit?: number },
  ): Promise<number[]>;
  /** The message's rows: user id → flags. */
  rows(messageId: number): Promise<Map<number, number>>;
  /** Writes new flags of some users' rows of one message. */
  setFlags(messageId: number, flags: ReadonlyMap<number, number>): Promise<void>;
  /** Every user with a subscription row to the channel, active or not. */
  everSubscribed(channelId: number): Promise<number[]>;
  removeRows(userIds: readonly number[], messageIds: readonly number[]): Promise<void>;
  /** Adds rows (with `flags`) where there are none. */
  addRows(userIds: readonly number[], messageIds: readonly number[], flags: number): Promise<void>;
  apply(write: EditWrite): Promise<void>;
  /** A new rendering of the message's unchanged content (link previews): no edit time, no history entry. */
  setRendering(messageId: number, renderedContent: string, hasImage: boolean): Promise<void>;
  /** Users' visibility policies for a topic (users without one are left out). */
  topicPolicies(channelId: number, topicKey: string): Promise<Map<number, VisibilityPolicy>>;
  setTopicPolicies(changes: readonly TopicPolicyChange[], at: Date): Promise<void>;
  /**
   * What notifications need to know of these receivers (as message.sent's `notify`): which are bots, and for a
   * channel (null: a direct message) its subscriptions with notification settings of their own and the users'
   * policies for the topic.
   */
  notifyFacts(
    userIds: readonly number[],
    channelId: number | null,
    topicKey: string,
  ): Promise<contracts.MessageNotifyFacts>;
}

/** Message editing's reads outside an edit (an edit is a unit of work over PlainStore.edits), and the history. */
export interface MessageEditStore {
  /** A channel topic's messages (only those `receivedBy` received, when given), oldest first. */
  topicMessageDates(
    recipientId: number,
    topicKey: string,
    options: { receivedBy?: number },
  ): Promise<{ id: number; dateSent: Date }[]>;
  /** The message's edit history, newest first; empty when it was never edited. */
  history(messageId: number): Promise<EditHistoryEntry[]>;
  /** The newest message of a channel topic, if any. */
  lastInTopic(recipientId: number, topicKey: string): Promise<number | null>;
  /** Users who follow a channel topic. */
  topicFollowers(channelId: number, topicKey: string): Promise<number[]>;
}
