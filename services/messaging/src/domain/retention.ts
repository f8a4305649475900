import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { MessagingStore } from './store.js';
import type {
  RetentionRealm,
  RetentionChannel,
  ArchiveScope,
  ArchivedMessage,
  ArchivedBatch,
} from './retention-store.js';

/**
 * Message retention, as Zulip's archive_messages (zerver/lib/retention.py): expired messages move with their rows to
 * an archive in batches, each batch one transaction with its deletion events; an administrator can restore a batch
 * until the archive is purged, `vacuumDays` after it was archived (Zulip's ARCHIVED_DATA_VACUUMING_DELAY_DAYS).
 * Every function takes the time it runs at, so tests run the job "at" a later date rather than wait.
 */

/** Zulip's ArchiveTransaction types. */
export const RETENTION_POLICY_BASED = 1;
/** Zulip's batch sizes: direct messages in batches of 1000, channel messages of 100. */
export const MESSAGE_BATCH_SIZE = 1000;
export const CHANNEL_MESSAGE_BATCH_SIZE = 100;
/** Archived batches purged per transaction (Zulip's TRANSACTION_DELETION_BATCH_SIZE). */
export const PURGE_BATCH_SIZE = 100;

const DAY_MS = 86_400_000;

/** One organization's work: its channels with the days each keeps, and the days of its direct messages. */
export interface RealmPlan {
  realmId: number;
  channels: { channel: RetentionChannel; days: number }[];
  /** Null: direct messages are kept (the organization keeps messages forever). */
  directDays: number | null;
}

/**
 * Zulip's get_realms_and_streams_for_archiving: a channel keeps its own days when it has them, -1 keeps forever,
 * null follows the organization; direct messages follow the organization.
 */
export function archivingPlan(realms: readonly RetentionRealm[], channels: readonly RetentionChannel[]): RealmPlan[] {
  const plans = new Map<number, RealmPlan>();
  const realmDays = new Map(realms.map((r) => [r.id, r.messageRetentionDays]));
  const planOf = (realmId: number) => {
    let plan = plans.get(realmId);
    if (!plan) {
      const days = realmDays.get(realmId) ?? null;
      plan = { realmId, channels: [], directDays: days !== null && days > 0 ? days : null };
      plans.set(realmId, plan);
    }
    return plan;
  };
  for (const realm of realms)
    if (realm.messageRetentionDays !== null && realm.messageRetentionDays > 0) planOf(realm.id);
  for (const channel of channels) {
    const own = channel.messageRetentionDays;
    const days = own === null ? (realmDays.get(channel.realmId) ?? null) : own;
    if (days === null || days <= 0) continue;
    planOf(channel.realmId).channels.push({ channel, days });
  }
  return [...plans.values()].sort((a, b) => a.realmId - b.realmId);
}

/** Zulip's check date: messages sent before it have expired. */
export function cutoffFor(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * One `message.deleted` per conversation of the batch (Zulip's delete_message names one channel and topic, or one
 * direct conversation): told to those who had the messages and, for a channel, its subscribers.
 */
export function deletionEvents(
  messages: readonly ArchivedMessage[],
  subscribers: ReadonlyMap<number, readonly number[]>,
  meta: { realmId: number; requestId: null },
): OutboxRecord[] {
  const groups = new Map<string, ArchivedMessage[]>();
  for (const m of messages) {
    const key = m.channelId === null ? `d${m.recipientId}` : `c${m.channelId}:${m.topicKey}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const events: OutboxRecord[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const audience = new Set(group.flatMap((m) => m.holders));
    if (first.channelId !== null) for (const id of subscribers.get(first.channelId) ?? []) audience.add(id);
    events.push(
      outboxRecord(
        contracts.messageDeleted,
        {
          message_ids: group.map((m) => m.id).sort((a, b) => a - b),
          message_type: first.channelId === null ? 'private' : 'stream',
          ...(first.channelId === null ? {} : { stream_id: first.channelId, topic: first.topic }),
          user_ids: [...audience].sort((a, b) => a - b),
        },
        meta,
      ),
    );
  }
  return events;
}

/** The owners' upload lists change as Zulip's do when a message goes: removed uploads, and updated ones. */
async function uploadEvents(
  { attachments }: Pick<MessagingStore, 'attachments'>,
  batch: ArchivedBatch,
  meta: { realmId: number; requestId: null },
): Promise<OutboxRecord[]> {
  const events: OutboxRecord[] = [];
  for (const full of await attachments.withMessages(batch.stillLinked)) {
    events.push(
      outboxRecord(
        contracts.attachmentUpdated,
        {
          user_id: full.ownerId,
          attachment: {
            id: full.id,
            name: full.fileName,
            path_id: full.pathId,
            size: full.size,
            create_time: full.createTime.getTime(),
            messages: full.messages.map((m) => ({ id: m.id, date_sent: m.dateSent.getTime() })),
          },
          upload_space_used: await attachments.spaceUsed(full.ownerId),
        },
        meta,
      ),
    );
  }
  for (const upload of batch.archivedUploads) {
    events.push(
      outboxRecord(
        contracts.attachmentRemoved,
        {
          user_id: upload.ownerId,
          attachment_id: upload.id,
          upload_space_used: await attachments.spaceUsed(upload.ownerId),
        },
        meta,
      ),
    );
  }
  return events;
}

/** Archives one scope's expired messages batch after batch, each batch one unit of work; how many were archived. */
async function archiveScope(
  domain: Domain,
  realmId: number,
  scope: ArchiveScope,
  cutoff: Date,
  limit: number,
  now: Date,
  subscribers: ReadonlyMap<number, readonly number[]>,
): Promise<{ messages: number; batches: number }> {
  const meta = { realmId, requestId: null };
  let messages = 0;
  let batches = 0;
  for (;;) {
    const moved = await domain.db.write(realmId, async (store) => {
      const batch = await store.retention.archiveBatch({ realmId, scope, cutoff, limit, at: now });
      if (batch.messages.length === 0) return { result: 0, events: [] };
      const events = [
        ...deletionEvents(batch.messages, subscribers, meta),
        ...(await uploadEvents(store, batch, meta)),
      ];
      return { result: batch.messages.length, events };
    });
    if (moved > 0) {
      messages += moved;
      batches += 1;
    }
    // Archived messages are gone from the live table, so the next batch's query needs no offset.
    if (moved < limit) return { messages, batches };
  }
}

export interface ArchiveReport {
  messages: number;
  batches: number;
  purgedBatches: number;
  purgedFiles: number;
}

/**
 * Zulip's archive_messages followed by clean_archived_data, run "at" `now`: every organization's and channel's
 * expired messages are archived, then batches archived more than `vacuumDays` before `now` are purged.
 */
export async function archiveMessages(
  domain: Domain,
  now: Date,
  options: { vacuumDays: number; realmId?: number },
): Promise<ArchiveReport> {
  const { realms, channels } = await domain.retention.candidates();
  const report: ArchiveReport = { messages: 0, batches: 0, purgedBatches: 0, purgedFiles: 0 };
  for (const plan of archivingPlan(realms, channels)) {
    if (options.realmId !== undefined && plan.realmId !== options.realmId) continue;
    const subscribers = await domain.channels.subscribers(plan.channels.map((c) => c.channel.id));
    for (const { channel, days } of plan.channels) {
      const done = await archiveScope(
        domain,
        plan.realmId,
        { recipientId: channel.recipientId },
        cutoffFor(now, days),
        CHANNEL_MESSAGE_BATCH_SIZE,
        now,
        subscribers,
      );
      report.messages += done.messages;
      report.batches += done.batches;
    }
    if (plan.directDays !== null) {
      const done = await archiveScope(
        domain,
        plan.realmId,
        { directOf: plan.realmId },
        cutoffFor(now, plan.directDays),
        MESSAGE_BATCH_SIZE,
        now,
        subscribers,
      );
      report.messages += done.messages;
      report.batches += done.batches;
    }
  }
  const purged = await purgeArchive(domain, now, options.vacuumDays);
  report.purgedBatches = purged.batches;
  report.purgedFiles = purged.files;
  if (report.messages > 0 || report.purgedBatches > 0) domain.logger.info({ ...report }, 'message retention applied');
  return report;
}

/** Zulip's clean_archived_data: batches archived `vacuumDays` or more before `now` go for good, with their files. */
export async function purgeArchive(
  domain: Domain,
  now: Date,
  vacuumDays: number,
): Promise<{ batches: number; files: number }> {
  const before = cutoffFor(now, vacuumDays);
  let batches = 0;
  let files = 0;
  for (;;) {
    const ids = await domain.retention.batchesBefore(before, PURGE_BATCH_SIZE);
    if (ids.length === 0) return { batches, files };
    // Batches of every organization: the purge's own unit of work (MessagingDatabase.writeAcross).
    const paths = await domain.db.writeAcross(async ({ retention }) => ({
      result: await retention.purgeBatches(ids),
      events: [],
    }));
    for (const path of paths) await domain.files.delete(path);
    batches += ids.length;
    files += paths.length;
  }
}

/**
 * Zulip's restore_data_from_archive_by_realm, or with a channel restore_retention_policy_deletions_for_stream: the
 * organization's archived retention batches (those holding the channel's messages) move back, one transaction each.
 * Clients see the messages again when they next fetch them (Zulip sends no event for a restore either).
 */
export async function restoreArchived(
  domain: Domain,
  realmId: number,
  channel?: { recipientId: number },
): Promise<{ batches: number; messages: number }> {
  const ids = await domain.retention.archivedBatches(realmId, channel?.recipientId);
  let messages = 0;
  for (const id of ids) {
    messages += (
      await domain.db.write(realmId, async ({ retention }) => ({
        result: await retention.restoreBatch(id),
        events: [],
      }))
    ).length;
  }
  return { batches: ids.length, messages };
}
