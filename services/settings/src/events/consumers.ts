import { contracts, type EventBus } from '@confab/events';
import { recordReceivedMessages } from '../domain/received-messages.js';
import type { Database } from '../domain/store.js';
import { recordGroup } from '../domain/system-groups.js';

export const MAX_MESSAGE_ID_CONSUMER = 'settings.max_message_id';
export const SYSTEM_GROUPS_CONSUMER = 'settings.system_groups';

/** What this service learns from other services' events; each handler calls one domain function. */
export function registerConsumers(bus: EventBus, db: Database): void {
  bus.consumer(MAX_MESSAGE_ID_CONSUMER, { prefetch: 200 }).onBatch(contracts.messageSent, (events) =>
    recordReceivedMessages(
      db,
      events.map((e) => ({ messageId: e.payload.message.id, userIds: e.payload.user_ids })),
    ),
  );
  bus.consumer(SYSTEM_GROUPS_CONSUMER).on(contracts.groupCreated, (event) => recordGroup(db, event.payload.group));
}
