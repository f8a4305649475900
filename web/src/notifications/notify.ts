/**
 * Desktop notifications and the sound for messages that arrive live, as the user's settings say (rules.ts), and
 * the unread count in the tab title. A notification is skipped when the user is looking at the message already
 * (the window has focus and the message is in the open conversation); clicking one opens the message.
 */
import { computed } from '@preact/signals';
import { navigate, route } from '../lib/router';
import type { ServerEvent } from '../lib/events';
import { parseHash } from '../lib/hash';
import { messageHash } from '../conversations/message-link';
import type { Message, UnreadEntry } from '../store/model';
import { mutedUsers, settings } from '../store/personal';
import { channelId, channelName, liveMatches, me, unread, view, whereOf } from '../store/store';
import { notificationFor, titleCount } from './rules';
import { playSound } from './sound';

export { whereOf };

const entryWhere = (entry: UnreadEntry) => whereOf(entry.streamId!, entry.topic ?? '');

/** The count the tab title starts with. */
export const titleUnread = computed(() =>
  titleCount(unread.value, settings.value.desktop_icon_count_display, entryWhere),
);

const plainText = (html: string) =>
  (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').trim().slice(0, 300);

function show(message: Message): void {
  const heading =
    message.type === 'stream'
      ? `${message.sender_full_name} (#${channelName(message.stream_id!) ?? ''} > ${message.subject})`
      : message.sender_full_name;
  const notification = new Notification(heading, { body: plainText(message.content), tag: String(message.id) });
  notification.onclick = () => {
    window.focus();
    navigate(parseHash(messageHash(message, me.value), channelId));
    notification.close();
  };
}

/** Notifies about the messages among the events that call for it. */
export function notifyAbout(events: readonly ServerEvent[]): void {
  let sound = false;
  for (const event of events) {
    if (event.type !== 'message') continue;
    const message = event.message as Message;
    const flags = (event.flags as string[] | undefined) ?? [];
    const where = message.type === 'stream' ? whereOf(message.stream_id!, message.subject) : { policy: 0 };
    const choice = notificationFor(
      message,
      flags,
      settings.value,
      where,
      me.value,
      mutedUsers.value.has(message.sender_id),
    );
    const seen =
      document.hasFocus() && route.value.view === 'narrow' && liveMatches(message, flags, view.value.terms, me.value);
    if (seen) continue;
    if (choice.desktop && 'Notification' in window && Notification.permission === 'granted') show(message);
    sound ||= choice.sound;
  }
  if (sound) playSound();
}
