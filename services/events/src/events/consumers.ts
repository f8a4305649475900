import { contracts, type EventBus, type EventContract, type EventEnvelope } from '@confab/events';
import type { ReadModel } from '../store/readmodel.js';
import * as channels from './channels.js';
import type { Delivery, Fanout } from './fanout.js';
import * as groups from './groups.js';
import * as messages from './messages.js';
import * as organization from './organization.js';
import * as people from './people.js';
import * as personal from './personal.js';

/**
 * The queue's name changed when it became ordered (a queue keeps the arguments it was declared with): start-up
 * deletes the queue of the earlier name (RETIRED_CONSUMERS).
 */
export const FANOUT_CONSUMER = 'events.fanout.ordered';
export const RETIRED_CONSUMERS = ['events.fanout'];

interface ConsumerDeps {
  bus: EventBus;
  fanout: Fanout;
  readModel: ReadModel;
  prefetch: number;
}

/**
 * One durable queue for every replica, taken by one of them at a time (an ordered consumer: a client sees its events
 * in the order they happened, which competing replicas would not keep): each event is turned into client events for
 * the queues that should see it. Events of other services that only feed this service's read model are recorded
 * as handled too, so /internal/events/processed answers for them.
 */
export function registerConsumers({ bus, fanout, readModel, prefetch }: ConsumerDeps): void {
  const consumer = bus.consumer(FANOUT_CONSUMER, { prefetch, ordered: true });
  // Deliveries that waited while earlier ones were handled go out together: one lookup, one append, one wake-up.
  const fan = <T>(contract: EventContract<T>, deliveries: (payload: T, event: EventEnvelope<T>) => Delivery[]) =>
    consumer.onBatch(contract, (events) =>
      fanout.deliverBatch(
        events.map((event) => ({ eventId: event.event_id, deliveries: deliveries(event.payload, event) })),
      ),
    );
  const recordOnly = <T>(contract: EventContract<T>, apply?: (payload: T) => Promise<void>) =>
    consumer.on(contract, async (event) => {
      await apply?.(event.payload);
      await fanout.record(event.event_id);
    });

  fan(contracts.messageSent, (p, e) => messages.messageSent(p, e.realm_id ?? 0));
  fan(contracts.messageDeleted, messages.messageDeleted);
  fan(contracts.messageUpdated, messages.messageUpdated);
  fan(contracts.submessageAdded, messages.submessageAdded);
  fan(contracts.messageFlagsChanged, messages.messageFlagsChanged);
  fan(contracts.reactionAdded, (p) => messages.reactionChanged(p, 'add'));
  fan(contracts.reactionRemoved, (p) => messages.reactionChanged(p, 'remove'));
  fan(contracts.typingStarted, (p) => messages.typingChanged(p, 'start'));
  fan(contracts.typingStopped, (p) => messages.typingChanged(p, 'stop'));
  fan(contracts.typingEditMessageStarted, (p) => messages.typingEditMessageChanged(p, 'start'));
  fan(contracts.typingEditMessageStopped, (p) => messages.typingEditMessageChanged(p, 'stop'));
  fan(contracts.userTopicChanged, messages.userTopicChanged);

  fan(contracts.userSettingsChanged, (p) => [
    ...personal.userSettingsChanged(p),
    ...organization.exportConsentChanged(p),
  ]);
  fan(contracts.meetingProviderTokenChanged, personal.meetingTokenChanged);
  fan(contracts.navigationViewAdded, personal.navigationViewAdded);
  fan(contracts.navigationViewUpdated, personal.navigationViewUpdated);
  fan(contracts.navigationViewRemoved, personal.navigationViewRemoved);
  fan(contracts.attachmentAdded, (p) => personal.attachmentChanged(p, 'add'));
  fan(contracts.attachmentUpdated, (p) => personal.attachmentChanged(p, 'update'));
  fan(contracts.attachmentRemoved, personal.attachmentRemoved);

  fan(contracts.pushDeviceUpdated, personal.pushDeviceUpdated);
  fan(contracts.clientDeviceChanged, personal.clientDeviceChanged);
  fan(contracts.draftsAdded, personal.draftsAdded);
  fan(contracts.draftUpdated, personal.draftUpdated);
  fan(contracts.draftRemoved, personal.draftRemoved);
  fan(contracts.scheduledMessagesAdded, personal.scheduledMessagesAdded);
  fan(contracts.scheduledMessageUpdated, personal.scheduledMessageUpdated);
  fan(contracts.scheduledMessageRemoved, personal.scheduledMessageRemoved);
  fan(contracts.scheduledMessagesDelivered, personal.scheduledMessagesDelivered);
  fan(contracts.remindersAdded, personal.remindersAdded);
  fan(contracts.reminderRemoved, personal.reminderRemoved);
  fan(contracts.savedSnippetAdded, (p) => personal.savedSnippetChanged(p, 'add'));
  fan(contracts.savedSnippetUpdated, (p) => personal.savedSnippetChanged(p, 'update'));
  fan(contracts.savedSnippetRemoved, personal.savedSnippetRemoved);

  fan(contracts.presenceChanged, people.presenceChanged);
  fan(contracts.userStatusChanged, people.userStatusChanged);
  fan(contracts.mutedUserAdded, people.mutedUsersChanged);
  fan(contracts.mutedUserRemoved, people.mutedUsersChanged);
  fan(contracts.alertWordsChanged, people.alertWordsChanged);
  fan(contracts.realmEmojiAdded, people.realmEmojiChanged);
  fan(contracts.realmEmojiDeactivated, people.realmEmojiChanged);
  fan(contracts.userUpdated, people.userUpdated);
  fan(contracts.userRoleChanged, people.userRoleChanged);
  fan(contracts.userAvatarChanged, people.userAvatarChanged);
  fan(contracts.userDeactivated, people.userActiveChanged);
  fan(contracts.userReactivated, people.userActiveChanged);

  fan(contracts.defaultChannelsChanged, organization.defaultChannelsChanged);
  fan(contracts.channelFolderAdded, organization.channelFolderAdded);
  fan(contracts.channelFolderUpdated, organization.channelFolderUpdated);
  fan(contracts.channelFoldersReordered, organization.channelFoldersReordered);
  fan(contracts.linkifiersChanged, organization.linkifiersChanged);
  fan(contracts.playgroundsChanged, organization.playgroundsChanged);
  fan(contracts.realmExportsChanged, organization.realmExportsChanged);
  fan(contracts.invitesChanged, organization.invitesChanged);
  fan(contracts.realmSettingsChanged, organization.realmSettingsChanged);
  fan(contracts.realmBotChanged, organization.realmBotChanged);
  fan(contracts.realmDomainsChanged, organization.realmDomainsChanged);
  fan(contracts.customProfileFieldsChanged, organization.customProfileFieldsChanged);
  fan(contracts.profileDataChanged, organization.profileDataChanged);

  fan(contracts.streamCreated, channels.streamCreated);
  fan(contracts.subscriptionAdded, channels.subscriptionAdded);
  fan(contracts.subscriptionRemoved, channels.subscriptionRemoved);
  fan(contracts.streamUpdated, channels.streamUpdated);
  fan(contracts.subscriptionUpdated, channels.subscriptionUpdated);

  consumer.on(contracts.groupCreated, async (event) => {
    const { group, direct_members, direct_subgroups } = event.payload;
    await fanout.deliver(event.event_id, groups.groupCreated(event.payload));
    await readModel.saveGroup({ group, members: direct_members, subgroups: direct_subgroups });
  });
  consumer.on(contracts.groupUpdated, async (event) => {
    const before = await readModel.group(event.payload.group.group_id);
    await fanout.deliver(event.event_id, groups.groupUpdated(event.payload, before));
    await readModel.saveGroup({
      group: event.payload.group,
      members: before?.members ?? [],
      subgroups: before?.subgroups ?? [],
    });
  });
  consumer.on(contracts.groupMembersChanged, async (event) => {
    await fanout.deliver(event.event_id, groups.groupMembersChanged(event.payload));
    for (const change of event.payload.changes) {
      const snapshot = await readModel.group(change.group_id);
      if (snapshot) await readModel.saveGroup(groups.applyMembership(snapshot, change));
    }
  });

  recordOnly(contracts.realmCreated, (p) => readModel.saveRealm(p.realm));
  recordOnly(contracts.realmUpdated, (p) => readModel.saveRealm(p.realm));
  fan(contracts.userCreated, people.userCreated);
}
