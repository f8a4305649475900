import type { Job } from 'bullmq';
import type { TestOutcome } from '../domain/types.js';

/** A test notification: sent to these devices of one user, unless the requester has stopped waiting (`deadline`). */
export interface TestJobData {
  userId: number;
  realmId: number;
  deviceIds: number[];
  /** Client devices (feature level 468); absent in jobs queued before they existed. */
  clientDeviceIds?: number[];
  requestId: string;
  /** Epoch ms; past it the request has answered FAILED_TO_CONNECT_BOUNCER, so nothing may be sent any more. */
  deadline: number;
  /**
   * Devices already sent to, kept across re-runs of the same job (a stalled worker) so none gets it twice: a push
   * device by its id, a client device as `c<id>`.
   */
  delivered?: (number | string)[];
}

/** The registration at the relay of one pending device registration. */
export interface RegisterJobData {
  /** Absent for a push device (feature level 406); `client` for a client device's token (level 468). */
  kind?: 'client';
  deviceId: number;
  registrationKey: string;
  requestId: string;
}

/** The notifications of one new message (all its receivers' devices): a batch per message. */
export interface MessageJobData {
  messageId: number;
  requestId: string;
}

/** The removal of a user's notifications of messages they have read. */
export interface RemoveJobData {
  userId: number;
  requestId: string;
}

/** The decision whom of a message's email candidates to email (who is away), and into which batches. */
export interface EmailDecisionJobData {
  messageId: number;
  requestId: string;
}

/** The missed-message emails of one of a user's batches, when it is due. */
export interface EmailBatchJobData {
  batchId: number;
  requestId: string;
}

/** Every queue of the push service, its job data and its result: a queue without a handler does not compile. */
export interface JobCatalog {
  'push-test': { data: TestJobData; result: TestOutcome };
  'push-register': { data: RegisterJobData; result: string };
  'push-message': { data: MessageJobData; result: string };
  'push-remove': { data: RemoveJobData; result: string };
  'push-email-decide': { data: EmailDecisionJobData; result: string };
  'push-email-batch': { data: EmailBatchJobData; result: string };
}

export type QueueName = keyof JobCatalog;
export type JobOf<Q extends QueueName> = Job<JobCatalog[Q]['data'], JobCatalog[Q]['result']>;
export type Handlers = { [Q in QueueName]: (job: JobOf<Q>) => Promise<JobCatalog[Q]['result']> };

export const TEST_QUEUE = 'push-test' satisfies QueueName;
export const REGISTER_QUEUE = 'push-register' satisfies QueueName;
export const MESSAGE_QUEUE = 'push-message' satisfies QueueName;
export const REMOVE_QUEUE = 'push-remove' satisfies QueueName;
export const EMAIL_DECIDE_QUEUE = 'push-email-decide' satisfies QueueName;
export const EMAIL_BATCH_QUEUE = 'push-email-batch' satisfies QueueName;

/** BullMQ keys live under the deployment's Redis prefix, so test runs and deployments sharing a Redis stay apart. */
