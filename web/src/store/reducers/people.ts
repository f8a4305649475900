/** The reducers of the events about people (accounts, presence) and of one's drafts, scheduled messages and emoji. */
import {
  assertNever,
  type DraftsEvent,
  type PresenceEvent,
  type RealmEmojiEvent,
  type RealmUserEvent,
  type ScheduledMessagesEvent,
} from '@confab/zulip';
import { onNonActiveUser } from '../admin';
import { presenceFromEvent, realmEmojiChoices } from '../model';
import { drafts, presence, realmEmoji, scheduled, users } from '../state';

export function onRealmUser(event: RealmUserEvent): void {
  switch (event.op) {
    case 'add': {
      const { person } = event;
      users.value = new Map(users.value).set(person.user_id, { ...users.value.get(person.user_id), ...person });
      return;
    }
    case 'update': {
      onNonActiveUser(event.person);
      const { person } = event;
      const before = users.value.get(person.user_id);
      if (before) users.value = new Map(users.value).set(person.user_id, { ...before, ...person });
      return;
    }
    default:
      assertNever(event);
  }
}

/** The legacy form (one client per user, which this client registers for) or the modern one (several users). */
export function onPresence(event: PresenceEvent): void {
  const next = new Map(presence.value);
  if ('presences' in event) {
    for (const [id, p] of Object.entries(event.presences)) next.set(Number(id), { ...p });
  } else {
    next.set(event.user_id, presenceFromEvent(next.get(event.user_id), event.presence));
  }
  presence.value = next;
}

export function onScheduledMessages(event: ScheduledMessagesEvent): void {
  switch (event.op) {
    case 'add':
      scheduled.value = [...scheduled.value, ...event.scheduled_messages];
      return;
    case 'update': {
      const updated = event.scheduled_message;
      scheduled.value = scheduled.value.map((m) =>
        m.scheduled_message_id === updated.scheduled_message_id ? updated : m,
      );
      return;
    }
    case 'remove':
      scheduled.value = scheduled.value.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
      return;
    default:
      assertNever(event);
  }
}

export function onDrafts(event: DraftsEvent): void {
  switch (event.op) {
    case 'add':
      drafts.value = [...drafts.value, ...event.drafts];
      return;
    case 'update': {
      const draft = event.draft;
      drafts.value = drafts.value.map((d) => (d.id === draft.id ? draft : d));
      return;
    }
    case 'remove':
      drafts.value = drafts.value.filter((d) => d.id !== event.draft_id);
      return;
    default:
      assertNever(event);
  }
}

export function onRealmEmoji(event: RealmEmojiEvent): void {
  realmEmoji.value = realmEmojiChoices(event.realm_emoji);
}
