/** Statuses as Zulip has them: its presets, what a status shows, and the request that sets one (settings/status.tsx). */
import type { UserStatus } from '../store/personal';

/** Zulip's default statuses (user_status_ui.ts), with the server's names for their emoji. */
export const STATUS_PRESETS: readonly { text: string; emoji: StatusEmojiInfo }[] = [
  { text: 'Busy', emoji: unicode('hammer_and_wrench', '1f6e0') },
  { text: 'In a meeting', emoji: unicode('calendar', '1f4c6') },
  { text: 'Commuting', emoji: unicode('bus', '1f68c') },
  { text: 'Out sick', emoji: unicode('face_with_head_bandage', '1f915') },
  { text: 'Vacationing', emoji: unicode('palm_tree', '1f334') },
  { text: 'Working remotely', emoji: unicode('house', '1f3e0') },
  { text: 'At the office', emoji: unicode('office', '1f3e2') },
];

export interface StatusEmojiInfo {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

function unicode(name: string, code: string): StatusEmojiInfo {
  return { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
}

/** Zulip's limit of a status text. */
export const MAX_STATUS_TEXT = 60;

/** A status as shown: its text and emoji, or null when nothing is set (an event clears with empty strings). */
export function shownStatus(status: UserStatus | undefined): { text: string; emoji: StatusEmojiInfo | null } | null {
  const text = status?.status_text?.trim() ?? '';
  const emoji =
    status?.emoji_name && status.emoji_code
      ? {
          emoji_name: status.emoji_name,
          emoji_code: status.emoji_code,
          reaction_type: status.reaction_type || 'unicode_emoji',
        }
      : null;
  return text || emoji ? { text, emoji } : null;
}

/** The parameters of POST /users/me/status for a text and an emoji (none: empty strings clear it, as Zulip's). */
export function statusParams(text: string, emoji: StatusEmojiInfo | null): Record<string, string> {
  return {
    status_text: text.trim(),
    emoji_name: emoji?.emoji_name ?? '',
    emoji_code: emoji?.emoji_code ?? '',
    reaction_type: emoji?.reaction_type ?? '',
  };
}
