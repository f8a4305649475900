import type { contracts, PayloadOf } from '@confab/events';
import type { ClientEvent, PersonalEvents } from '@confab/zulip';
import { acceptsType } from '../domain/descriptor.js';
import { DISPLAY_SETTINGS_LEGACY, NOTIFICATION_SETTINGS_LEGACY } from '../domain/legacy-state.js';
import { topicFor, type QueueContext } from '../domain/shaping.js';
import type { Builder, Delivery } from './fanout.js';

/** An event for the user's own queues only, when the queue takes its type. */
function own(userId: number, type: string, events: () => PersonalEvents[]): Delivery[] {
  const build: Builder = (ctx) => (acceptsType(ctx.queue, type) ? events() : []);
  return [{ users: [userId], build }];
}

/** Like `own`, for events whose shape depends on the client (the empty topic's name). */
function ownShaped(userId: number, type: string, events: Builder): Delivery[] {
  const build: Builder = (ctx) => (acceptsType(ctx.queue, type) ? events(ctx) : []);
  return [{ users: [userId], build }];
}

/**
 * Zulip's user_settings update: one event per changed setting (`language_name` beside a new default_language).
 * Queues without the user_settings_object capability also get the deprecated `update_display_settings` and
 * `update_global_notifications` events for the settings those existed for (Zulip's do_change_user_setting).
 */
export function userSettingsChanged(payload: PayloadOf<typeof contracts.userSettingsChanged>): Delivery[] {
  const changed = payload.changed.filter((name) => name in payload.settings);
  const language = (name: string) =>
    name === 'default_language' && payload.language_name !== undefined ? { language_name: payload.language_name } : {};
  // Per setting, as Zulip sends them: the modern event, then the legacy one for clients that read it.
  const perSetting = changed.map((name) => {
    // Present: `changed` keeps the names that are in `settings`.
    const value = payload.settings[name] ?? null;
    // Sent only when the email is known (legacyToo below).
    const user = payload.email ?? '';
    const legacy: ClientEvent[] = [];
    if (NOTIFICATION_SETTINGS_LEGACY.includes(name)) {
      legacy.push({
        type: 'update_global_notifications',
        user,
        notification_name: name,
        setting: value,
      });
    }
    if (DISPLAY_SETTINGS_LEGACY.includes(name) || name === 'timezone') {
      legacy.push({
        type: 'update_display_settings',
        user,
        setting_name: name,
        setting: value,
        ...language(name),
      });
    }
    const modern: ClientEvent = { type: 'user_settings', op: 'update', property: name, value, ...language(name) };
    return { modern, legacy };
  });
  const build: Builder = (ctx) => {
    const legacyToo = !ctx.queue.capabilities.userSettingsObject && payload.email !== undefined;
    const events: ClientEvent[] = [];
    for (const { modern, legacy } of perSetting) {
      if (acceptsType(ctx.queue, 'user_settings')) events.push(modern);
      if (legacyToo) events.push(...legacy.filter((event) => acceptsType(ctx.queue, event.type)));
    }
    return events;
  };
  return [{ users: [payload.user_id], build }];
}

/** docs/api.md's has_meetingprovider_token event (Zulip's has_zoom_token / has_webex_token). */
export function meetingTokenChanged(payload: PayloadOf<typeof contracts.meetingProviderTokenChanged>): Delivery[] {
  return own(payload.user_id, 'has_meetingprovider_token', () => [
    { type: 'has_meetingprovider_token', value: payload.has_token },
  ]);
}

export function navigationViewAdded(payload: PayloadOf<typeof contracts.navigationViewAdded>): Delivery[] {
  return own(payload.user_id, 'navigation_view', () => [
    { type: 'navigation_view', op: 'add', navigation_view: payload.navigation_view },
  ]);
}

export function navigationViewUpdated(payload: PayloadOf<typeof contracts.navigationViewUpdated>): Delivery[] {
  return own(payload.user_id, 'navigation_view', () => [
    { type: 'navigation_view', op: 'update', fragment: payload.fragment, data: payload.data },
  ]);
}

export function navigationViewRemoved(payload: PayloadOf<typeof contracts.navigationViewRemoved>): Delivery[] {
  return own(payload.user_id, 'navigation_view', () => [
    { type: 'navigation_view', op: 'remove', fragment: payload.fragment },
  ]);
}

type AttachmentChange = PayloadOf<typeof contracts.attachmentAdded>;

export function attachmentChanged(payload: AttachmentChange, op: 'add' | 'update'): Delivery[] {
  return own(payload.user_id, 'attachment', () => [
    { type: 'attachment', op, attachment: payload.attachment, upload_space_used: payload.upload_space_used },
  ]);
}

export function attachmentRemoved(payload: PayloadOf<typeof contracts.attachmentRemoved>): Delivery[] {
  return own(payload.user_id, 'attachment', () => [
    {
      type: 'attachment',
      op: 'remove',
      attachment: { id: payload.attachment_id },
      upload_space_used: payload.upload_space_used,
    },
  ]);
}

export function draftsAdded(payload: PayloadOf<typeof contracts.draftsAdded>): Delivery[] {
  return own(payload.user_id, 'drafts', () => [{ type: 'drafts', op: 'add', drafts: payload.drafts }]);
}

export function draftUpdated(payload: PayloadOf<typeof contracts.draftUpdated>): Delivery[] {
  return own(payload.user_id, 'drafts', () => [{ type: 'drafts', op: 'update', draft: payload.draft }]);
}

export function draftRemoved(payload: PayloadOf<typeof contracts.draftRemoved>): Delivery[] {
  return own(payload.user_id, 'drafts', () => [{ type: 'drafts', op: 'remove', draft_id: payload.draft_id }]);
}

type ScheduledMessage = contracts.ScheduledMessageRecord;

/** A channel message's empty topic as this client can show it. */
const scheduledFor = (ctx: QueueContext, m: ScheduledMessage): ScheduledMessage =>
  m.topic === undefined ? m : { ...m, topic: topicFor(ctx, m.topic) };

export function scheduledMessagesAdded(payload: PayloadOf<typeof contracts.scheduledMessagesAdded>): Delivery[] {
  return ownShaped(payload.user_id, 'scheduled_messages', (ctx) => [
    {
      type: 'scheduled_messages',
      op: 'add',
      scheduled_messages: payload.scheduled_messages.map((m) => scheduledFor(ctx, m)),
    },
  ]);
}

export function scheduledMessageUpdated(payload: PayloadOf<typeof contracts.scheduledMessageUpdated>): Delivery[] {
  return ownShaped(payload.user_id, 'scheduled_messages', (ctx) => [
    { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledFor(ctx, payload.scheduled_message) },
  ]);
}

export function scheduledMessageRemoved(payload: PayloadOf<typeof contracts.scheduledMessageRemoved>): Delivery[] {
  return own(payload.user_id, 'scheduled_messages', () => [
    { type: 'scheduled_messages', op: 'remove', scheduled_message_id: payload.scheduled_message_id },
  ]);
}

/** Zulip's remove event for each delivered message, as `scheduled_message.removed` sends for one. */
export function scheduledMessagesDelivered(
  payload: PayloadOf<typeof contracts.scheduledMessagesDelivered>,
): Delivery[] {
  return own(payload.user_id, 'scheduled_messages', () =>
    payload.scheduled_message_ids.map((id) => ({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id })),
  );
}

export function remindersAdded(payload: PayloadOf<typeof contracts.remindersAdded>): Delivery[] {
  return own(payload.user_id, 'reminders', () => [{ type: 'reminders', op: 'add', reminders: payload.reminders }]);
}

export function reminderRemoved(payload: PayloadOf<typeof contracts.reminderRemoved>): Delivery[] {
  return own(payload.user_id, 'reminders', () => [
    { type: 'reminders', op: 'remove', reminder_id: payload.reminder_id },
  ]);
}

type SnippetChange = PayloadOf<typeof contracts.savedSnippetAdded>;

export function savedSnippetChanged(payload: SnippetChange, op: 'add' | 'update'): Delivery[] {
  return own(payload.user_id, 'saved_snippets', () => [
    { type: 'saved_snippets', op, saved_snippet: payload.saved_snippet },
  ]);
}

export function savedSnippetRemoved(payload: PayloadOf<typeof contracts.savedSnippetRemoved>): Delivery[] {
  return own(payload.user_id, 'saved_snippets', () => [
    { type: 'saved_snippets', op: 'remove', saved_snippet_id: payload.saved_snippet_id },
  ]);
}

/** Zulip's push_device: an E2EE push device's registration status (push_account_id as a string). */
export function pushDeviceUpdated(payload: PayloadOf<typeof contracts.pushDeviceUpdated>): Delivery[] {
  return own(payload.user_id, 'push_device', () => [
    {
      type: 'push_device',
      push_account_id: String(payload.push_account_id),
      status: payload.status,
      ...(payload.error_code === null ? {} : { error_code: payload.error_code }),
    },
  ]);
}

/** Zulip's `device` event (feature level 468): add, remove, or update with only the fields that changed. */
export function clientDeviceChanged(payload: PayloadOf<typeof contracts.clientDeviceChanged>): Delivery[] {
  return own(payload.user_id, 'device', () => [
    {
      type: 'device',
      op: payload.op,
      device_id: payload.device_id,
      ...(payload.op === 'update' ? payload.changes : {}),
    },
  ]);
}
