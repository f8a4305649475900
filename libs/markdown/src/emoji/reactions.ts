import type { RealmEmoji } from '../types.js';
import { emojiByCode, emojiByName } from './catalog.js';

/** Zulip's reaction types (Confab names Zulip's `zulip_extra_emoji` `service_extra_emoji`). */
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

export const REACTION_TYPES: readonly ReactionType[] = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

/** The server's own extra emoji; its code is its name. */
export const SERVICE_EXTRA_EMOJI: readonly string[] = ['zulip'];

/** A custom emoji as the reactions endpoint sees it, looked up by its id (the reaction's `emoji_code`). */
export interface RealmEmojiRecord {
  name: string;
  deactivated?: boolean;
}

export type ReactionCheck =
  | { ok: true }
  | { ok: false; reason: 'invalid_type' | 'invalid_code' | 'invalid_name' | 'deactivated'; message: string };

const fail = (reason: Exclude<ReactionCheck, { ok: true }>['reason'], message: string): ReactionCheck => ({
  ok: false,
  reason,
  message,
});

/** Validates an `emoji_name`/`emoji_code`/`reaction_type` triple the way Zulip's reactions endpoint does. */
export function checkReactionEmoji(
  reaction: { type: string; name: string; code: string },
  realmEmojiById?: (id: string) => RealmEmojiRecord | undefined,
): ReactionCheck {
  const { type, name, code } = reaction;
  if (type === 'realm_emoji') {
    const custom = realmEmojiById?.(code);
    if (custom === undefined) return fail('invalid_code', 'Invalid custom emoji.');
    if (custom.name !== name) return fail('invalid_name', 'Invalid custom emoji name.');
    if (custom.deactivated === true) return fail('deactivated', 'This custom emoji has been deactivated.');
    return { ok: true };
  }
  if (type === 'service_extra_emoji') {
    if (!SERVICE_EXTRA_EMOJI.includes(code)) return fail('invalid_code', 'Invalid emoji code.');
    if (name !== code) return fail('invalid_name', 'Invalid emoji name.');
    return { ok: true };
  }
  if (type === 'unicode_emoji') {
    // Codes are compared exactly: Zulip clients send the canonical form.
    const emoji = emojiByCode(code);
    if (emoji === undefined || emoji.code !== code) return fail('invalid_code', 'Invalid emoji code.');
    if (emojiByName(name)?.code !== code) return fail('invalid_name', 'Invalid emoji name.');
    return { ok: true };
  }
  return fail('invalid_type', 'Invalid emoji type.');
}

/** What an emoji name means for a reaction sent without `emoji_code`: custom emoji win, then `zulip`, then Unicode. */
export function resolveReactionEmoji(
  name: string,
  realmEmoji?: (name: string) => RealmEmoji | undefined,
): { type: ReactionType; code: string } | undefined {
  const custom = realmEmoji?.(name);
  if (custom !== undefined && custom.deactivated !== true) return { type: 'realm_emoji', code: custom.id };
  if (SERVICE_EXTRA_EMOJI.includes(name)) return { type: 'service_extra_emoji', code: name };
  const emoji = emojiByName(name);
  return emoji === undefined ? undefined : { type: 'unicode_emoji', code: emoji.code };
}
