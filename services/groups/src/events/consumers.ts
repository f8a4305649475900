import { contracts, type EventBus, type EventEnvelope } from '@confab/events';
import type { GroupsDatabase } from '../domain/store.js';
import { applyRealm, applyUsers } from '../domain/sync.js';

export const READ_MODEL_CONSUMER = 'groups.read-models';

/** Organizations and users from the settings service, and the system-group memberships that follow from them. */
export function registerConsumers(bus: EventBus, db: GroupsDatabase): void {
  const meta = (event: EventEnvelope<unknown>, realmId: number) => ({ realmId, requestId: event.request_id });
  const claim = (event: EventEnvelope<unknown>) => ({ consumer: READ_MODEL_CONSUMER, eventId: event.event_id });

  const onRealm = async (event: EventEnvelope<{ realm: contracts.RealmRecord }>) => {
    const { realm } = event.payload;
    await db.writeOnce(realm.realm_id, claim(event), (store) => applyRealm(store, realm, meta(event, realm.realm_id)));
  };
  const onUser = async (event: EventEnvelope<{ user: contracts.UserRecord }>) => {
    const { user } = event.payload;
    await db.writeOnce(user.realm_id, claim(event), (store) =>
      applyUsers(store, user.realm_id, [user], meta(event, user.realm_id)),
    );
  };

  bus
    .consumer(READ_MODEL_CONSUMER)
    .on(contracts.realmCreated, onRealm)
    .on(contracts.realmUpdated, onRealm)
    .on(contracts.userCreated, onUser)
    .on(contracts.userUpdated, onUser)
    .on(contracts.userRoleChanged, onUser)
    .on(contracts.userDeactivated, onUser)
    .on(contracts.userReactivated, onUser);
}
