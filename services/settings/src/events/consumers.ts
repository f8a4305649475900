import { contracts, type EventBus } from '@confab/events';
import type { Database } from '../domain/store.js';
import { recordGroup } from '../domain/system-groups.js';

export const SYSTEM_GROUPS_CONSUMER = 'settings.system_groups';
/** Consumers of earlier versions, whose queues start-up deletes (max_message_id is now read from messaging). */
export const RETIRED_CONSUMERS = ['settings.max_message_id'];

/** What this service learns from other services' events; each handler calls one domain function. */
export function registerConsumers(bus: EventBus, db: Database): void {
  bus.consumer(SYSTEM_GROUPS_CONSUMER).on(contracts.groupCreated, (event) => recordGroup(db, event.payload.group));
}
