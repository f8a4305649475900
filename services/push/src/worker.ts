import { Worker } from 'bullmq';
import { internal } from '@confab/events';
import { countDeadLetter, observeJobStart, runProcess, ServiceClient } from '@confab/http';
import { runWithLogContext } from '@confab/logging';
import { bullOptions, createMailer, mailConfigured, ServiceRuntime } from '@confab/runtime';
import { loadConfig } from './config.js';
import {
  EMAIL_BATCH_QUEUE,
  EMAIL_DECIDE_QUEUE,
  MESSAGE_QUEUE,
  REGISTER_QUEUE,
  REMOVE_QUEUE,
  TEST_QUEUE,
  type Handlers,
  type QueueName,
} from './jobs/catalog.js';
import { runEmailBatch, runEmailDecision, type PeopleSource } from './jobs/email.job.js';
import { runMessageNotification, runRemoval, type PresenceSource } from './jobs/notify-message.job.js';
import { EmailQueue, NotificationQueue, RegistrationQueue } from './jobs/queues.js';
import { runRegistration } from './jobs/register-device.job.js';
import { runTestNotification } from './jobs/test-notification.job.js';
import { RelayClient } from './relay/client.js';
import { EmailRepository } from './repositories/email.repository.js';
import { createPrisma } from './repositories/prisma.js';
import { NotificationsRepository } from './repositories/notifications.repository.js';
import { PushRepository } from './repositories/push.repository.js';

/** How often, and after how long, pending registrations whose job may have been lost are queued again (ms). */
const SWEEP_INTERVAL_MS = 60_000;
/** Users asked about per presence request. */
const PRESENCE_CHUNK = 500;

runProcess('push-worker', loadConfig, async (config, log) => {
  const runtime = new ServiceRuntime(config, log);
  const prisma = runtime.database(createPrisma);
  // Outbox rows written here are published by the HTTP process's outbox relay, which polls for them.
  const repo = new PushRepository(prisma);
  const relayClient = new RelayClient(config.relay, log);
  const scheduler = new RegistrationQueue(
    {
      redis: config.redis,
      registerAttempts: config.registerAttempts,
      registerBackoffMs: Math.max(1000, config.relay.backoffMs),
    },
    log,
  );
  const notificationQueue = new NotificationQueue({ redis: config.redis, ...config.notify }, log);
  const notifications = new NotificationsRepository(prisma);
  const settings = new ServiceClient({ caller: 'push', baseUrl: config.settingsUrl, secret: config.internalSecret });
  const presence: PresenceSource = {
    async away(realmId, userIds) {
      const away: number[] = [];
      for (let i = 0; i < userIds.length; i += PRESENCE_CHUNK) {
        const answer = await settings.call('GET', '/presence/away', internal.awayUsers, {
          query: { realm_id: realmId, user_ids: userIds.slice(i, i + PRESENCE_CHUNK) },
        });
        away.push(...answer.away_user_ids);
      }
      return away;
    },
  };
  const people: PeopleSource = {
    // One user (or organization) by id: the page after the id below it, one long.
    async recipient(userId) {
      const page = await settings.call('GET', '/users', internal.usersPage, {
        query: { after_id: userId - 1, limit: 1 },
      });
      const user = page.users[0];
      if (!user || user.user_id !== userId || !user.is_active || user.is_bot) return null;
      return { userId, fullName: user.full_name, deliveryEmail: user.delivery_email };
    },
    async realm(realmId) {
      const page = await settings.call('GET', '/realms', internal.realmsPage, {
        query: { after_id: realmId - 1, limit: 1 },
      });
      const realm = page.realms[0];
      return realm && realm.realm_id === realmId ? { name: realm.name, url: realm.url.replace(/\/+$/, '') } : null;
    },
  };
  const mailOn = mailConfigured(config.mail);
  const mailer = await createMailer(config.mail, log);
  const emailQueue = new EmailQueue({ redis: config.redis, ...config.notify }, log);
  const emails = new EmailRepository(prisma);
  const emailDeps = {
    emails,
    presence,
    people,
    mailer,
    scheduler: emailQueue,
    logger: log,
    deadLettered: countDeadLetter,
  };
  const deps = { repo, relay: relayClient, logger: log };
  const notifyDeps = {
    ...deps,
    notifications,
    presence,
    externalUrl: config.externalUrl,
    deadLettered: countDeadLetter,
  };
  const handlers: Handlers = {
    'push-test': (job) => runTestNotification(deps, job),
    'push-register': (job) => runRegistration(deps, job),
    'push-message': (job) => runMessageNotification(notifyDeps, job),
    'push-remove': (job) => runRemoval(notifyDeps, job),
    'push-email-decide': (job) => runEmailDecision(emailDeps, job),
    'push-email-batch': (job) => runEmailBatch(emailDeps, job),
  };
  const options = {
    ...bullOptions(config.redis),
    concurrency: config.workerConcurrency,
  };
  const start = <Q extends QueueName>(queue: Q) => {
    const worker = new Worker(
      queue,
      (job) => {
        if (job.attemptsMade === 0) observeJobStart(queue, job.timestamp + (job.opts.delay ?? 0));
        return runWithLogContext({ requestId: (job.data as { requestId?: string }).requestId }, () =>
          handlers[queue](job as never),
        );
      },
      options,
    );
    worker.on('error', (err: Error) => log.warn({ err: err.message, queue }, 'worker error'));
    worker.on('failed', (job, err) => log.warn({ queue, job_id: job?.id, err: err.message }, 'job failed'));
    return worker;
  };
  const relayConfigured = config.relay.url !== '';
  // Notifications and emails only where this process can deliver them (as the HTTP process consumes their events).
  const workers = [
    start(TEST_QUEUE),
    start(REGISTER_QUEUE),
    ...(relayConfigured ? [start(MESSAGE_QUEUE), start(REMOVE_QUEUE)] : []),
    ...(mailOn ? [start(EMAIL_DECIDE_QUEUE), start(EMAIL_BATCH_QUEUE)] : []),
  ];
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  const sweep = async () => {
    for (const device of await repo.stalePendingDevices(SWEEP_INTERVAL_MS, 500))
      await scheduler.schedule(device, 'sweep');
    for (const device of await repo.staleClientRegistrations(SWEEP_INTERVAL_MS, 500))
      if (device.registrationKey)
        await scheduler.schedule({ kind: 'client', id: device.id, registrationKey: device.registrationKey }, 'sweep');
    // Notifications and emails whose job Redis lost (or never got): a job id is its message's or batch's, so one
    // still queued or retrying is not queued twice.
    if (relayConfigured) {
      const stale = await notifications.stale(SWEEP_INTERVAL_MS, 500);
      for (const messageId of stale.messageIds) await notificationQueue.scheduleMessage(messageId, null);
      for (const userId of stale.removalUserIds) await notificationQueue.scheduleRemoval(userId, null);
    }
    if (mailOn) {
      const stale = await emails.staleEmails(SWEEP_INTERVAL_MS, 500);
      for (const messageId of stale.messageIds) await emailQueue.scheduleDecision(messageId, null);
      for (const batch of stale.batches) await emailQueue.scheduleBatch(batch, null);
    }
  };
  const timer = setInterval(
    () => void sweep().catch((err: unknown) => log.warn({ err }, 'registration sweep failed')),
    SWEEP_INTERVAL_MS,
  );
  timer.unref();
  void sweep().catch((err: unknown) => log.warn({ err }, 'registration sweep failed'));

  log.info(
    { relay: config.relay.url || null, mail: mailOn, concurrency: config.workerConcurrency },
    'push worker running',
  );
  return [
    ['sweep', async () => clearInterval(timer)],
    ['workers', () => Promise.all(workers.map((w) => w.close()))],
    ['queues', () => Promise.all([scheduler.close(), notificationQueue.close(), emailQueue.close()])],
    ['mail', () => mailer.close()],
    ...runtime.shutdown(),
  ];
});
