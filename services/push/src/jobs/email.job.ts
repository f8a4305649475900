import type { Logger } from '@confab/logging';
import type { EmailBatchRef } from '../domain/email-notifications.js';
import {
  missedMessageEmails,
  type EmailRealm,
  type EmailRecipient,
  type MissedMessageEmail,
} from '../domain/missed-message-email.js';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../domain/notification-rules.js';
import type { EmailRepository } from '../repositories/email.repository.js';
import type { JobOf } from './catalog.js';
import type { PresenceSource } from './notify-message.job.js';

/** Who an email goes to and the organization it names (the settings service's, asked when a batch is sent). */
export interface PeopleSource {
  /** The user, or null when there is none or they are deactivated. */
  recipient(userId: number): Promise<EmailRecipient | null>;
  realm(realmId: number): Promise<EmailRealm | null>;
}

export interface EmailJobDeps {
  emails: EmailRepository;
  presence: PresenceSource;
  people: PeopleSource;
  mailer: { send(mail: MissedMessageEmail): Promise<void> };
  scheduler: { scheduleBatch(batch: EmailBatchRef, requestId: string | null): Promise<void> };
  logger: Logger;
  /** Called when a batch gives up for good (its emails are marked failed). */
  deadLettered: (queue: string) => void;
}

const isLastAttempt = (job: { attemptsMade: number; opts: { attempts?: number } }) =>
  job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * A message's email notifications (push-email-decide): asks once which of its candidates are away (Zulip emails
 * only those), drops the others, and puts each away receiver's into their open batch, which closes after their
 * email_notifications_batching_period_seconds; queues the batches' delayed jobs.
 */
export async function runEmailDecision(deps: EmailJobDeps, job: JobOf<'push-email-decide'>): Promise<string> {
  const { messageId, requestId } = job.data;
  const undecided = await deps.emails.undecided(messageId);
  if (undecided.length === 0) return 'done';
  const realmId = undecided[0]!.realmId;
  const ids = undecided.map((n) => n.userId);
  const away = new Set(await deps.presence.away(realmId, ids));
  const settings = await deps.emails.settingsOf([...away]);
  const batches = await deps.emails.decide(
    messageId,
    realmId,
    [...away].map((userId) => ({
      userId,
      periodSeconds: (settings.get(userId) ?? DEFAULT_NOTIFICATION_SETTINGS)
        .email_notifications_batching_period_seconds,
    })),
    ids.filter((id) => !away.has(id)),
  );
  for (const batch of batches) await deps.scheduler.scheduleBatch(batch, requestId);
  return `${batches.length} batched`;
}

/**
 * A user's batch of missed-message emails (push-email-batch), when it is due: closes it, and sends what is still
 * waiting in it (not read, not deleted) as one email per conversation; each conversation's messages are marked sent
 * once the mail server accepted its email, so a retry sends only the rest. A batch left empty sends nothing.
 */
export async function runEmailBatch(deps: EmailJobDeps, job: JobOf<'push-email-batch'>): Promise<string> {
  const { batchId } = job.data;
  const batch = await deps.emails.closeBatch(batchId);
  if (!batch) return 'done';
  const missed = await deps.emails.waiting(batchId);
  if (missed.length === 0) {
    await deps.emails.finishBatch(batchId, 'empty');
    return 'empty';
  }
  const [recipient, realm] = await Promise.all([deps.people.recipient(batch.userId), deps.people.realm(batch.realmId)]);
  if (!recipient || !realm) {
    await deps.emails.finishEmails(batchId, 'failed');
    await deps.emails.finishBatch(batchId, 'failed');
    deps.logger.info({ user_id: batch.userId, batch_id: batchId }, 'missed-message email to nobody: user gone');
    return 'no recipient';
  }
  const settings = (await deps.emails.settingsOf([batch.userId])).get(batch.userId) ?? DEFAULT_NOTIFICATION_SETTINGS;
  let failed = 0;
  for (const mail of missedMessageEmails(recipient, realm, settings, missed)) {
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      failed++;
      deps.logger.warn(
        { user_id: batch.userId, batch_id: batchId, err: err instanceof Error ? err.message : err },
        'missed-message email not sent',
      );
      continue;
    }
    await deps.emails.finishEmails(batchId, 'sent', mail.messageIds);
  }
  if (failed === 0) {
    await deps.emails.finishBatch(batchId, 'sent');
    return 'sent';
  }
  if (isLastAttempt(job)) {
    await deps.emails.finishEmails(batchId, 'failed');
    await deps.emails.finishBatch(batchId, 'failed');
    deps.deadLettered('push-email-batch');
    return 'failed';
  }
  throw new Error(`${failed} missed-message email(s) of batch ${batchId} not sent`);
}
