import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { LATE_CUTOFF_MS, scheduledDict, sendInput } from './scheduled-messages.js';
import type { StoredScheduledMessage } from './scheduled-store.js';
import { globalTime } from './notice-text.js';
import { deliverReminder } from './reminders.js';
import { REMIND } from './scheduled-store.js';
import { sendMessage } from './send.js';

const meta = (realmId: number, requestId: string) => ({ realmId, requestId });

export type DeliveryOutcome =
  | { outcome: 'failed' | 'gone' | 'superseded' }
  | { outcome: 'delivered'; dueAt: Date }
  | { outcome: 'not-due'; at: Date };

/**
 * Delivers one scheduled message (the worker's job): the send and the guarded pending → delivered update commit in
 * one transaction, so a crash anywhere leaves the row pending and no message, and a second delivery attempt of the
 * same row (a redelivered job, a second worker) finds it delivered and rolls its own message back. All of POST
 * /messages' checks run again, as of now. A lasting failure marks the row failed and tells the sender by event.
 */
export async function deliverScheduled(domain: Domain, id: number, now: Date = new Date()): Promise<DeliveryOutcome> {
  const row = await domain.scheduledMessages.get(id);
  if (!row || row.delivered || row.failed) return { outcome: 'gone' };
  if (row.deliveryType === REMIND) {
    if (row.scheduledAt.getTime() > now.getTime()) return { outcome: 'not-due', at: row.scheduledAt };
    const outcome = await deliverReminder(domain, row);
    return outcome === 'delivered' ? { outcome, dueAt: row.scheduledAt } : { outcome };
  }
  // The job of an older time (moved later by an edit that could not replace a running job): wait for the new time.
  if (row.scheduledAt.getTime() > now.getTime()) return { outcome: 'not-due', at: row.scheduledAt };
  const requestId = `scheduled-${id}`;
  let failure: string | null = null;
  // Whom to tell why: nobody when the organization or the sender's account is what refuses it (as in Zulip).
  let tell: Actor | null = null;
  try {
    const [user, realm] = await Promise.all([domain.directory.user(row.senderId), domain.directory.realm(row.realmId)]);
    if (!realm || realm.deactivated) throw invalid('This organization has been deactivated');
    if (!user || !user.isActive) throw invalid('Account is deactivated');
    if (!user.isSystemBot) tell = { user, realm, requestId };
    if (now.getTime() > row.scheduledAt.getTime() + LATE_CUTOFF_MS) {
      throw invalid('Message could not be sent at the scheduled time.');
    }
    let superseded = false;
    try {
      await sendMessage(domain, { user, realm, requestId }, sendInput(row), {
        alongside: async (tx, messageId) => {
          if (!(await domain.scheduledMessages.markDelivered(tx, row.id, row.version, messageId))) {
            superseded = true;
            throw new Superseded();
          }
          return [
            outboxRecord(
              contracts.scheduledMessageRemoved,
              { user_id: row.senderId, scheduled_message_id: row.id },
              meta(row.realmId, requestId),
            ),
          ];
        },
      });
    } catch (err) {
      if (superseded) return { outcome: 'superseded' };
      throw err;
    }
    return { outcome: 'delivered', dueAt: row.scheduledAt };
  } catch (err) {
    // Refusals (permissions, a channel gone, ...) last; anything else (database, broker) is retried by the queue.
    if (!(err instanceof ConfabError) || err.status >= 500) throw err;
    failure = err.message;
  }
  const failed = await domain.db.write(row.realmId, async ({ scheduledMessages }) => {
    const marked = await scheduledMessages.markFailed(row.id, row.version, failure);
    return {
      result: marked,
      events: marked
        ? [
            outboxRecord(
              contracts.scheduledMessageUpdated,
              { user_id: row.senderId, scheduled_message: scheduledDict(marked) },
              meta(row.realmId, requestId),
            ),
          ]
        : [],
    };
  });
  domain.logger.info({ scheduledMessageId: id, failure }, 'scheduled message could not be sent');
  if (failed && tell) await tellSenderOfFailure(domain, tell, failed, failure);
  return { outcome: failed ? 'failed' : 'superseded' };
}

/**
 * The Notification Bot's direct message to the sender of a scheduled message that could not be sent (Zulip's
 * send_failed_scheduled_message_notification). A notice that cannot be posted is logged; the row stays failed.
 */
async function tellSenderOfFailure(domain: Domain, sender: Actor, row: StoredScheduledMessage, failure: string) {
  const bot = await domain.readModel.notificationBot(row.realmId);
  if (!bot) return;
  const content =
    `The message you scheduled for ${globalTime(row.scheduledAt)} was not sent because of the following error:` +
    `\n\n> ${failure}\n\n[View scheduled messages](#scheduled)`;
  try {
    await sendMessage(
      domain,
      { ...sender, user: bot },
      {
        type: 'private',
        to: JSON.stringify([sender.user.id]),
        topic: undefined,
        content,
        queueId: undefined,
        localId: undefined,
        readBySender: true,
        client: 'Internal',
      },
    );
  } catch (err) {
    if (!(err instanceof ConfabError)) throw err;
    domain.logger.warn({ err: err.message, scheduledMessageId: row.id }, 'the failure notice was refused');
  }
}

class Superseded extends Error {
  constructor() {
    super('scheduled message changed or was delivered meanwhile');
  }
}
