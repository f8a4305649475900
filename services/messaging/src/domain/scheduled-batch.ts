import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { LATE_CUTOFF_MS, sendInput } from './scheduled-messages.js';
import { prepareSend } from './send.js';
import { attachWidget } from './submessages.js';

/** Most scheduled messages one transaction delivers. */
export const DELIVERY_BATCH = 50;

/**
 * Delivers due scheduled messages together (docs/architecture.md, "Hot paths and batching"): one transaction claims
 * up to `limit` due rows (rows another delivery holds are skipped), checks and renders each as POST /messages
 * would, and writes them all — the messages in one shared statement where they may share it, the rows marked
 * delivered, their events — so a burst due in the same second costs a few round trips per batch, not per message.
 * A row that cannot be sent as it is (a refusal, too late, uploads to claim) is left alone: its own job delivers it
 * or records why not (deliverScheduled). Returns the due times of the messages delivered.
 */
export async function deliverDueBatch(domain: Domain, now = new Date(), limit = DELIVERY_BATCH): Promise<Date[]> {
  let dueTimes: Date[] = [];
  const firstInChannel: number[] = [];
  // Widgets (/poll, /todo) are attached after the messages commit, as for a message sent directly.
  const widgets: { actor: Actor; id: number; content: string }[] = [];
  await domain.store.batchTransaction(async (executor) => {
    const rows = await domain.scheduledMessages.claimDue(executor, now, limit);
    // Checked and rendered side by side: each check reads on its own connection, not the claiming one.
    const checked = await Promise.all(
      rows.map(async (row) => {
        if (now.getTime() > row.scheduledAt.getTime() + LATE_CUTOFF_MS) return null;
        const [user, realm] = await Promise.all([
          domain.directory.user(row.senderId),
          domain.directory.realm(row.realmId),
        ]);
        if (!user?.isActive || !realm || realm.deactivated) return null;
        try {
          const prepared = await prepareSend(domain, { user, realm, requestId: `scheduled-${row.id}` }, sendInput(row));
          if (prepared.claimable.length > 0) return null;
          const actor = { user, realm, requestId: `scheduled-${row.id}` };
          return { id: row.id, senderId: row.senderId, realmId: row.realmId, dueAt: row.scheduledAt, prepared, actor };
        } catch {
          return null;
        }
      }),
    );
    const ready = checked.filter((r) => r !== null);
    if (ready.length === 0) return { result: undefined, events: [] };
    const sent = await domain.messages.sendMany(
      ready.map((r) => r.prepared.write),
      executor,
    );
    await domain.scheduledMessages.markManyDelivered(
      executor,
      ready.map((r, i) => ({ id: r.id, messageId: sent[i]!.messageId })),
    );
    const events = deliveredEvents(ready);
    dueTimes = ready.map((r) => r.dueAt);
    ready.forEach((r, i) =>
      widgets.push({ actor: r.actor, id: sent[i]!.messageId, content: r.prepared.checked.content }),
    );
    for (const { prepared } of ready)
      if (prepared.channel?.firstMessageId === null) firstInChannel.push(prepared.channel.id);
    return { result: undefined, events };
  });
  for (const channelId of firstInChannel) domain.directory.forgetChannel(channelId);
  for (const w of widgets) await attachWidget(domain, w.actor, { id: w.id, content: w.content });
  return dueTimes;
}

/**
 * The owners' news of the batch: one `scheduled_message.delivered` per owner (and organization) for all of theirs,
 * rather than a `scheduled_message.removed` each: a burst due at once is mostly a few people's messages, and each event
 * is an outbox row, a publish, a delivery and a fan-out.
 */
function deliveredEvents(ready: readonly { id: number; senderId: number; realmId: number }[]): OutboxRecord[] {
  const byOwner = new Map<string, { senderId: number; realmId: number; ids: number[] }>();
  for (const r of ready) {
    const key = `${r.realmId}/${r.senderId}`;
    const owner = byOwner.get(key) ?? { senderId: r.senderId, realmId: r.realmId, ids: [] };
    owner.ids.push(r.id);
    byOwner.set(key, owner);
  }
  return [...byOwner.values()].map((o) =>
    outboxRecord(
      contracts.scheduledMessagesDelivered,
      { user_id: o.senderId, scheduled_message_ids: o.ids },
      { realmId: o.realmId, requestId: `scheduled-${o.ids[0]}` },
    ),
  );
}
