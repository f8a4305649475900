/**
 * Zulip's rules for what deserves the user's attention, as plain functions: whether a message raises a desktop
 * notification and a sound (direct messages, mentions and alert words, followed topics, channels that ask for it,
 * nothing muted), and the unread count the tab title shows (desktop_icon_count_display).
 */
import type { Message, UnreadEntry } from '../store/model';
import { Policy, type UserSettings } from '../store/personal';
import { isMutedPlace, isShownUnread, type Where } from '../store/visibility';

export { isMutedPlace, isShownUnread, type Where } from '../store/visibility';

const MENTION_FLAGS = ['mentioned', 'has_alert_word'];
const WILDCARD_FLAGS = ['stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

/** Whether a message that just arrived notifies on the desktop and with a sound. */
export function notificationFor(
  message: Pick<Message, 'type' | 'sender_id'>,
  flags: readonly string[],
  settings: UserSettings,
  where: Where,
  me: number,
  senderMuted: boolean,
): { desktop: boolean; sound: boolean } {
  const none = { desktop: false, sound: false };
  if (message.sender_id === me || senderMuted || flags.includes('read')) return none;
  const personal = { desktop: settings.enable_desktop_notifications, sound: settings.enable_sounds };
  const mentioned =
    flags.some((f) => MENTION_FLAGS.includes(f)) ||
    (settings.wildcard_mentions_notify && flags.some((f) => WILDCARD_FLAGS.includes(f)));
  if (message.type === 'private' || mentioned) return withSound(personal, settings);
  if (where.policy === Policy.muted) return none;
  const followed =
    where.policy === Policy.followed
      ? {
          desktop: settings.enable_followed_topic_desktop_notifications,
          sound: settings.enable_followed_topic_audible_notifications,
        }
      : none;
  if (isMutedPlace(where)) return withSound(followed, settings);
  const channel = {
    desktop: where.subscription?.desktop_notifications ?? settings.enable_stream_desktop_notifications,
    sound: where.subscription?.audible_notifications ?? settings.enable_stream_audible_notifications,
  };
  return withSound({ desktop: followed.desktop || channel.desktop, sound: followed.sound || channel.sound }, settings);
}

const withSound = (choice: { desktop: boolean; sound: boolean }, settings: UserSettings) => ({
  desktop: choice.desktop,
  sound: choice.sound && settings.notification_sound !== 'none',
});

/**
 * The unread count for the tab title, as desktop_icon_count_display chooses: every unread message shown (1, the
 * Inbox's and the sidebar's count: nothing from muted places), or only direct messages and mentions (3; mentions
 * count wherever they are, as Zulip's mention count) and followed topics (2); none (4).
 */
export function titleCount(
  unread: ReadonlyMap<number, UnreadEntry>,
  display: number,
  whereOf: (entry: UnreadEntry) => Where,
): number {
  if (display === 4) return 0;
  let n = 0;
  for (const entry of unread.values()) {
    const dm = entry.streamId === undefined;
    const where = dm ? null : whereOf(entry);
    const shown = isShownUnread(where);
    if (display === 1) {
      if (shown) n += 1;
      continue;
    }
    const important = dm || !!entry.mentioned || (shown && display === 2 && where?.policy === Policy.followed);
    if (important) n += 1;
  }
  return n;
}
