/**
 * The client's one store: signals filled from /register and kept current by events (Zulip's model: the state a
 * client registers for, then every change as an event). The signals live in state.ts, /register goes in through
 * register.ts, and each event type has one reducer (reducers/, and the parts of the store beside them); this file
 * dispatches the typed union of Zulip's client events to them.
 */
import { assertNever, type ClientEvent } from '@confab/zulip';
import { batch } from '@preact/signals';
import { onDefaultStreams, onInvitesChanged, onRealm, onRealmExport, onRealmLinkifiers } from './admin';
import { channelsAfter, subscriptionsAfter } from './channels';
import { onRealmBot, onUserGroup } from './integrations';
import {
  onAlertWords,
  onMutedUsers,
  onUpdateDisplaySettings,
  onUpdateGlobalNotifications,
  onUserSettings,
  onUserStatus,
  onUserTopic,
} from './personal';
import {
  onDeleteMessage,
  onMessage,
  onReaction,
  onSubmessage,
  onTyping,
  onUpdateMessage,
  onUpdateMessageFlags,
} from './reducers/messages';
import { onDrafts, onPresence, onRealmEmoji, onRealmUser, onScheduledMessages } from './reducers/people';
import { streams, subscriptions } from './state';

export * from './state';
export { applyRegister, type RegisterState } from './register';
export { isStarredView, liveMatches } from './reducers/messages';

export function applyEvents(events: readonly ClientEvent[]): void {
  batch(() => {
    for (const event of events) applyEvent(event);
  });
}

/** One event to its type's reducer; the types this client does not show are listed, so a new one must be placed. */
export function applyEvent(event: ClientEvent): void {
  switch (event.type) {
    case 'message':
      return onMessage(event);
    case 'update_message_flags':
      return onUpdateMessageFlags(event);
    case 'reaction':
      return onReaction(event);
    case 'submessage':
      return onSubmessage(event);
    case 'typing':
      return onTyping(event);
    case 'update_message':
      return onUpdateMessage(event);
    case 'delete_message':
      return onDeleteMessage(event);
    case 'presence':
      return onPresence(event);
    case 'scheduled_messages':
      return onScheduledMessages(event);
    case 'drafts':
      return onDrafts(event);
    case 'realm_user':
      return onRealmUser(event);
    case 'realm_emoji':
      return onRealmEmoji(event);
    case 'subscription':
      subscriptions.value = subscriptionsAfter(subscriptions.value, event);
      return;
    case 'stream': {
      // Inside applyEvents' batch: both lists change in one render.
      const next = channelsAfter({ streams: streams.value, subscriptions: subscriptions.value }, event);
      streams.value = next.streams;
      subscriptions.value = next.subscriptions;
      return;
    }
    case 'realm':
      return onRealm(event);
    case 'default_streams':
      return onDefaultStreams(event);
    case 'realm_linkifiers':
      return onRealmLinkifiers(event);
    case 'realm_export':
      return onRealmExport(event);
    case 'invites_changed':
      return onInvitesChanged(event);
    case 'realm_bot':
      return onRealmBot(event);
    case 'user_group':
      return onUserGroup(event);
    case 'user_settings':
      return onUserSettings(event);
    case 'update_display_settings':
      return onUpdateDisplaySettings(event);
    case 'update_global_notifications':
      return onUpdateGlobalNotifications(event);
    case 'user_topic':
      return onUserTopic(event);
    case 'muted_users':
      return onMutedUsers(event);
    case 'alert_words':
      return onAlertWords(event);
    case 'user_status':
      return onUserStatus(event);
    // Not shown by this client.
    case 'typing_edit_message':
    case 'realm_user_settings_defaults':
    case 'channel_folder':
    case 'realm_filters':
    case 'realm_playgrounds':
    case 'realm_export_consent':
    case 'realm_domains':
    case 'custom_profile_fields':
    case 'reminders':
    case 'saved_snippets':
    case 'navigation_view':
    case 'attachment':
    case 'has_meetingprovider_token':
    case 'push_device':
    case 'device':
    case 'heartbeat':
      return;
    default:
      assertNever(event);
  }
}
