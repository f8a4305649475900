import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { registerJobQueueDepth } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { RedisSettings } from '@confab/config';
import { bullOptions } from '@confab/runtime';
import type { EmailBatchRef, EmailScheduler } from '../domain/email-notifications.js';
import type { NotificationScheduler } from '../domain/message-notifications.js';
import type {
  PendingRegistration,
  RegistrationScheduler,
  TestNotificationDispatcher,
  TestNotificationRequest,
  TestOutcome,
} from '../domain/types.js';
import {
  EMAIL_BATCH_QUEUE,
  EMAIL_DECIDE_QUEUE,
  MESSAGE_QUEUE,
  REGISTER_QUEUE,
  REMOVE_QUEUE,
  TEST_QUEUE,
  type JobCatalog,
} from './catalog.js';

export interface QueueOptions {
  redis: RedisSettings;
  /** How long a request waits for its test-notification job, in ms. */
  testWaitMs: number;
  registerAttempts: number;
  /** First retry delay of a registration, in ms. */
  registerBackoffMs: number;
}

function common(options: Pick<QueueOptions, 'redis'>) {
  return bullOptions(options.redis);
}

/** Enqueues test notifications and waits (bounded) for each to finish. */
export class TestNotificationQueue implements TestNotificationDispatcher {
  private readonly testQueue: Queue<JobCatalog['push-test']['data'], JobCatalog['push-test']['result']>;
  private readonly testEvents: QueueEvents;

  constructor(
    private readonly options: Pick<QueueOptions, 'redis' | 'testWaitMs'>,
    private readonly logger: Logger,
  ) {
    this.testQueue = new Queue(TEST_QUEUE, common(options));
    this.testEvents = new QueueEvents(TEST_QUEUE, common(options));
    const warn = (err: Error) => this.logger.warn({ err: err.message }, 'push queue error');
    this.testQueue.on('error', warn);
    this.testEvents.on('error', warn);
    registerJobQueueDepth(this.testQueue);
  }

  /** Resolves once the job events are being listened to (before that, waiting could miss them). */
  async ready(): Promise<void> {
    await Promise.all([this.testQueue.waitUntilReady(), this.testEvents.waitUntilReady()]);
  }

  async dispatch(request: TestNotificationRequest): Promise<TestOutcome> {
    const started = Date.now();
    // The job stops sending a little before the request stops waiting, so an answer never contradicts what happened.
    const deadline = started + this.options.testWaitMs - 500;
    const job = await this.testQueue.add(
      'test',
      { ...request, deadline },
      { jobId: randomUUID(), attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } },
    );
    try {
      return await job.waitUntilFinished(this.testEvents, Math.max(1, started + this.options.testWaitMs - Date.now()));
    } catch (err) {
      this.logger.warn(
        { err: err instanceof Error ? err.message : err, job_id: job.id },
        'test notification did not finish in time',
      );
      // Not started yet (no worker running): take it back, so it cannot be sent after we answered.
      await job.remove().catch(() => undefined);
      return { result: 'FAILED_TO_CONNECT_BOUNCER' };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.testEvents.close(), this.testQueue.close()]);
  }
}

/** Enqueues device registrations at the relay (retried by BullMQ with exponential backoff). */
export class RegistrationQueue implements RegistrationScheduler {
  private readonly registerQueue: Queue<JobCatalog['push-register']['data'], JobCatalog['push-register']['result']>;

  constructor(
    private readonly options: Pick<QueueOptions, 'redis' | 'registerAttempts' | 'registerBackoffMs'>,
    private readonly logger: Logger,
  ) {
    this.registerQueue = new Queue(REGISTER_QUEUE, common(options));
    this.registerQueue.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'push queue error'));
    registerJobQueueDepth(this.registerQueue);
  }

  async schedule(registration: PendingRegistration, requestId: string): Promise<void> {
    const { kind, id, registrationKey } = registration;
    await this.registerQueue.add(
      'register',
      { deviceId: id, registrationKey, requestId, ...(kind ? { kind } : {}) },
      {
        // One job per registration: scheduling the same registration again (the sweep) adds nothing.
        jobId: `register-${kind ? `${kind}-` : ''}${id}-${registrationKey}`,
        attempts: this.options.registerAttempts,
        backoff: { type: 'exponential', delay: this.options.registerBackoffMs },
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
  }

  async close(): Promise<void> {
    await this.registerQueue.close();
  }
}

export interface NotificationQueueOptions {
  redis: RedisSettings;
  /** Tries of a message's notifications (or a removal) before what is left is marked failed. */
  attempts: number;
  /** First retry delay, in ms; doubled for each further one. */
  backoffMs: number;
}

function retriesOf(options: Pick<NotificationQueueOptions, 'attempts' | 'backoffMs'>) {
  return {
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: options.backoffMs },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/**
 * Enqueues the notifications of new messages and their removals (retried by BullMQ with exponential backoff). A
 * message's job id is derived from the message, so scheduling it again (the sweep) while it exists adds nothing.
 */
export class NotificationQueue implements NotificationScheduler {
  private readonly messageQueue: Queue<JobCatalog['push-message']['data'], JobCatalog['push-message']['result']>;
  private readonly removeQueue: Queue<JobCatalog['push-remove']['data'], JobCatalog['push-remove']['result']>;

  constructor(
    private readonly options: NotificationQueueOptions,
    private readonly logger: Logger,
  ) {
    this.messageQueue = new Queue(MESSAGE_QUEUE, common(options));
    this.removeQueue = new Queue(REMOVE_QUEUE, common(options));
    const warn = (err: Error) => this.logger.warn({ err: err.message }, 'push queue error');
    this.messageQueue.on('error', warn);
    this.removeQueue.on('error', warn);
    registerJobQueueDepth(this.messageQueue);
    registerJobQueueDepth(this.removeQueue);
  }

  private retries() {
    return retriesOf(this.options);
  }

  async scheduleMessage(messageId: number, requestId: string | null, key?: string): Promise<void> {
    await this.messageQueue.add(
      'message',
      { messageId, requestId: requestId ?? randomUUID() },
      { jobId: `message-${messageId}${key ? `-${key}` : ''}`, removeOnComplete: { age: 3600 }, ...this.retries() },
    );
  }

  async scheduleMessages(messages: readonly { messageId: number; requestId: string | null }[]): Promise<void> {
    if (messages.length === 0) return;
    await this.messageQueue.addBulk(
      messages.map(({ messageId, requestId }) => ({
        name: 'message',
        data: { messageId, requestId: requestId ?? randomUUID() },
        opts: { jobId: `message-${messageId}`, removeOnComplete: { age: 3600 }, ...this.retries() },
      })),
    );
  }

  /** `key` tells removals apart (the event that caused one); a sweep's has none and shares the user's job. */
  async scheduleRemoval(userId: number, requestId: string | null, key?: string): Promise<void> {
    await this.removeQueue.add(
      'remove',
      { userId, requestId: requestId ?? randomUUID() },
      // Removed once done: a later read of the same user must be able to queue a job under the same id.
      { jobId: `remove-${userId}${key ? `-${key}` : ''}`, removeOnComplete: true, ...this.retries() },
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.messageQueue.close(), this.removeQueue.close()]);
  }
}

/**
 * Enqueues the decisions of missed-message emails (a job per message) and their batches (a delayed job per batch,
 * due when the batch is). Job ids derive from the message and the batch, so the sweep never queues one twice.
 */
export class EmailQueue implements EmailScheduler {
  private readonly decideQueue: Queue<
    JobCatalog['push-email-decide']['data'],
    JobCatalog['push-email-decide']['result']
  >;
  private readonly batchQueue: Queue<JobCatalog['push-email-batch']['data'], JobCatalog['push-email-batch']['result']>;

  constructor(
    private readonly options: NotificationQueueOptions,
    private readonly logger: Logger,
  ) {
    this.decideQueue = new Queue(EMAIL_DECIDE_QUEUE, common(options));
    this.batchQueue = new Queue(EMAIL_BATCH_QUEUE, common(options));
    const warn = (err: Error) => this.logger.warn({ err: err.message }, 'push queue error');
    this.decideQueue.on('error', warn);
    this.batchQueue.on('error', warn);
    registerJobQueueDepth(this.decideQueue);
    registerJobQueueDepth(this.batchQueue);
  }

  async scheduleDecision(messageId: number, requestId: string | null, key?: string): Promise<void> {
    await this.decideQueue.add(
      'decide',
      { messageId, requestId: requestId ?? randomUUID() },
      {
        jobId: `email-message-${messageId}${key ? `-${key}` : ''}`,
        removeOnComplete: { age: 3600 },
        ...retriesOf(this.options),
      },
    );
  }

  async scheduleBatch(batch: EmailBatchRef, requestId: string | null): Promise<void> {
    await this.batchQueue.add(
      'batch',
      { batchId: batch.id, requestId: requestId ?? randomUUID() },
      {
        jobId: `email-batch-${batch.id}`,
        delay: Math.max(0, batch.dueAt.getTime() - Date.now()),
        removeOnComplete: { age: 3600 },
        ...retriesOf(this.options),
      },
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.decideQueue.close(), this.batchQueue.close()]);
  }
}
