import {
  contracts,
  outboxRecord,
  type EventBus,
  type EventEnvelope,
  type OutboxRecord,
  type PayloadOf,
} from '@confab/events';
import type { Realm, User } from '../domain/types.js';
import type { Tx } from '../repositories/prisma.js';
import type { Directory } from '../repositories/directory.js';
import { applyGroupMembersChanged, replaceGroupMembers } from '../repositories/group-members.sql.js';
import { pickUserSettings, type ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Store } from '../repositories/store.js';

export const READ_MODEL_CONSUMER = 'messaging.readmodel';

interface ConsumerDeps {
  bus: EventBus;
  store: Store;
  readModel: ReadModelRepository;
  directory: Directory;
  /**
   * A new member of the organization was recorded (in `tx`): the events of what follows from it in the same
   * transaction (their subscriptions to the default channels).
   */
  onNewMember?: (tx: Tx, realm: Realm, user: User, requestId: string) => Promise<OutboxRecord[]>;
}

/** Keeps this service's copies of organizations, users, their settings and groups up to date. */
export function registerConsumers({ bus, store, readModel, directory, onNewMember }: ConsumerDeps): void {
  // Each event is applied at most once: the claim and the change commit together. The caches it touches are
  // forgotten (in every replica) before the change as well as after it: a replica that hears only the later notice
  // late could answer from its copy after this change is visible in the database.
  // `withEvents`: the change returns the events of what follows from it, which commit with it (Store.applyOnce).
  const withEvents =
    <T>(
      apply: (tx: Tx, event: EventEnvelope<T>) => Promise<OutboxRecord[]>,
      after: (event: EventEnvelope<T>) => void,
    ) =>
    async (event: EventEnvelope<T>) => {
      after(event);
      await store.applyOnce({ consumer: READ_MODEL_CONSUMER, eventId: event.event_id }, (tx) => apply(tx, event));
      after(event);
    };
  const once = <T>(
    apply: (tx: Tx, event: EventEnvelope<T>) => Promise<unknown>,
    after: (event: EventEnvelope<T>) => void,
  ) =>
    withEvents<T>(async (tx, event) => {
      await apply(tx, event);
      return [];
    }, after);

  const realm = once<{ realm: contracts.RealmRecord }>(
    (tx, e) => readModel.upsertRealm(tx, e.payload.realm),
    (e) => directory.forgetRealm(e.payload.realm.realm_id),
  );
  const user = once<{ user: contracts.UserRecord }>(
    async (tx, e) => {
      await readModel.upsertUser(tx, e.payload.user);
    },
    (e) => directory.forgetUser(e.payload.user.user_id),
  );

  const created = withEvents<PayloadOf<typeof contracts.userCreated>>(
    async (tx, e) => {
      const recorded = await readModel.upsertUser(tx, e.payload.user);
      if (e.payload.via_invitation || recorded.isBot || !onNewMember) return [];
      const realm = await readModel.realmById(recorded.realmId);
      if (!realm) return [];
      return onNewMember(tx, realm, recorded, e.request_id ?? `user-created-${e.event_id}`);
    },
    (e) => directory.forgetUser(e.payload.user.user_id),
  );

  const emoji = once<contracts.RealmEmojiChange>(
    (tx, e) => readModel.upsertRealmEmoji(tx, e.payload.realm_id, Object.values(e.payload.realm_emoji)),
    (e) => directory.forgetRealmEmoji(e.payload.realm_id),
  );

  const filtersOf = <T extends { realm_id: number }>(e: EventEnvelope<T>) =>
    directory.forgetPersonalFilters(e.payload.realm_id);

  bus
    .consumer(READ_MODEL_CONSUMER)
    .on(
      contracts.mutedUserAdded,
      withEvents(async (tx, e) => {
        const { user_id: userId, muted_user_id: mutedUserId, realm_id: realmId } = e.payload;
        await readModel.addMutedUser(tx, { userId, mutedUserId, realmId });
        // Zulip's do_mark_muted_user_messages_as_read: what the muted user sent is read from now on.
        const ids = await readModel.markSenderRead(tx, userId, mutedUserId);
        if (ids.length === 0) return [];
        const flags = outboxRecord(
          contracts.messageFlagsChanged,
          { user_id: userId, op: 'add', flag: 'read', messages: ids },
          { realmId, requestId: e.request_id },
        );
        return [flags];
      }, filtersOf),
    )
    .on(
      contracts.mutedUserRemoved,
      once((tx, e) => readModel.removeMutedUser(tx, e.payload.user_id, e.payload.muted_user_id), filtersOf),
    )
    .on(
      contracts.alertWordsChanged,
      once(
        (tx, e) => readModel.setAlertWords(tx, e.payload.user_id, e.payload.realm_id, e.payload.alert_words),
        filtersOf,
      ),
    )
    .on(contracts.realmEmojiAdded, emoji)
    .on(contracts.realmEmojiDeactivated, emoji)
    .on(contracts.realmCreated, realm)
    .on(contracts.realmUpdated, realm)
    .on(contracts.userCreated, created)
    .on(contracts.userUpdated, user)
    .on(contracts.userRoleChanged, user)
    .on(contracts.userDeactivated, user)
    .on(contracts.userReactivated, user)
    .on(
      contracts.userAvatarChanged,
      once(
        async (tx, e) => {
          // Messages show the sender's uploaded avatar (Zulip's avatar_source 'U'); a default one is computed.
          const url = e.payload.avatar_source === 'U' ? e.payload.avatar_url : null;
          if (!(await readModel.setUserAvatar(tx, e.payload.user_id, url))) {
            throw new Error(`user ${e.payload.user_id} is not known yet`);
          }
        },
        (e) => directory.forgetUser(e.payload.user_id),
      ),
    )
    .on(
      contracts.userSettingsChanged,
      once(
        async (tx, e) => {
          // Settings can overtake the user's creation (different publishers); retrying waits for it.
          const settings = pickUserSettings(e.payload.settings);
          if (!(await readModel.applyUserSettings(tx, e.payload.user_id, settings))) {
            throw new Error(`user ${e.payload.user_id} is not known yet`);
          }
          // Zulip deletes every stored draft when synchronization is turned off (no events: clients keep theirs).
          if (settings.enableDraftsSynchronization === false)
            await tx.draft.deleteMany({ where: { userId: e.payload.user_id } });
        },
        (e) => directory.forgetUser(e.payload.user_id),
      ),
    )
    .on(
      contracts.groupCreated,
      once(
        async (tx, e) => {
          await readModel.upsertGroup(tx, e.payload.group);
          await replaceGroupMembers(tx, e.payload.flattened);
        },
        (e) => directory.forgetGroups(e.payload.group.realm_id),
      ),
    )
    .on(
      contracts.groupUpdated,
      once(
        (tx, e) => readModel.upsertGroup(tx, e.payload.group),
        (e) => directory.forgetGroups(e.payload.group.realm_id),
      ),
    )
    .on(
      contracts.groupMembersChanged,
      once(
        (tx, e) => applyGroupMembersChanged(tx, e.payload),
        (e) => directory.forgetGroups(e.payload.realm_id),
      ),
    );
}
