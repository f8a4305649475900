import { codeFromHex } from './catalog.js';

// One emoji or ZWJ sequence, following Unicode TR51's EBNF (the same shape Zulip looks for).
const ELEMENT = '\\p{Emoji}(?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?';
const POSSIBLE_EMOJI = `(?:\\p{Regional_Indicator}{2}|${ELEMENT})(?:\\u200D(?:\\p{Regional_Indicator}{2}|${ELEMENT}))*`;

/** Finds candidate emoji in text; use with `lastIndex`/`exec`. */
export function possibleEmojiRegex(): RegExp {
  return new RegExp(POSSIBLE_EMOJI, 'gu');
}

// A lone text-presentation character (digits, arrows, ©) is text unless written with U+FE0F.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

/** Whether a candidate found by `possibleEmojiRegex` is plain text rather than an emoji. */
export function isTextPresentation(candidate: string): boolean {
  return TEXT_PRESENTATION.test(candidate);
}

/** Zulip's `emoji_code` for a literal emoji string: hex code points without U+FE0F. */
export function codeOfEmojiString(emoji: string): string {
  const hex: string[] = [];
  for (const char of emoji) hex.push((char.codePointAt(0) ?? 0).toString(16).padStart(4, '0'));
  return codeFromHex(hex.join('-'));
}
