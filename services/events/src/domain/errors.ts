import { ConfabError } from '@confab/errors';

/** Zulip's BadEventQueueIdError: unknown, expired, deleted or someone else's queue. */
export function badEventQueue(queueId: string): ConfabError {
  return new ConfabError(`Bad event queue ID: ${queueId}`, { code: 'BAD_EVENT_QUEUE_ID', data: { queue_id: queueId } });
}
