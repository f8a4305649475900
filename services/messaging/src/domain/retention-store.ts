import type { Attachment } from './types.js';

export interface RetentionRealm {
  id: number;
  /** Null: messages are kept forever (Zulip's -1). */
  messageRetentionDays: number | null;
}

export interface RetentionChannel {
  id: number;
  realmId: number;
  recipientId: number;
  /** Null: the organization's; -1: forever; else days. */
  messageRetentionDays: number | null;
}

/** Which messages one batch takes: one channel's, or an organization's direct messages. */
export type ArchiveScope = { recipientId: number } | { directOf: number };

/** A message a batch moved to the archive, with the users who had it. */
export interface ArchivedMessage {
  id: number;
  channelId: number | null;
  recipientId: number;
  topic: string;
  topicKey: string;
  holders: number[];
}

export interface ArchivedBatch {
  /** The archive transaction's id; null when nothing had expired (no batch is recorded). */
  archiveId: number | null;
  messages: ArchivedMessage[];
  /** Uploads the batch's messages referred to that no live message refers to any more (their files stay). */
  archivedUploads: Attachment[];
  /** Uploads the batch's messages referred to that other messages still refer to. */
  stillLinked: Attachment[];
}

/** The archive's storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface RetentionStore {
  /**
   * Organizations with a retention of their own, and the channels that may have one in force: those with days of
   * their own, and those following an organization that has one (a superset; `archivingPlan` decides).
   */
  candidates(): Promise<{ realms: RetentionRealm[]; channels: RetentionChannel[] }>;
  /** The organization's retention batches not restored yet, oldest first; with `recipientId`, those holding its messages. */
  archivedBatches(realmId: number, recipientId?: number): Promise<number[]>;
  /** Batches archived before `before`, oldest first. */
  batchesBefore(before: Date, limit: number): Promise<number[]>;
}

/** The archive inside a unit of work (MessagingStore.retention). */
export interface RetentionUnit {
  /**
   * Moves up to `limit` messages of the scope sent before `cutoff`, with their per-user rows, reactions,
   * submessages and upload links, into a new archive transaction stamped `at`; uploads no live message refers to
   * any more move too (their files stay until the purge).
   */
  archiveBatch(batch: {
    realmId: number;
    scope: ArchiveScope;
    cutoff: Date;
    limit: number;
    at: Date;
  }): Promise<ArchivedBatch>;
  /** Moves a batch's messages and rows back; the ids restored. */
  restoreBatch(archiveId: number): Promise<number[]>;
  /** Deletes these batches and what they hold; the upload files nothing names any more, to delete after commit. */
  purgeBatches(archiveIds: readonly number[]): Promise<string[]>;
}
