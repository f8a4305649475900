/**
 * Where Zulip's emoji names differ from emojibase's for emoji that people (and Zulip's clients, which send names
 * with reactions) commonly use: Zulip's canonical name for the code point; the emojibase name stays an alias.
 * Zulip's full hand-picked name table is not available offline here; this list grows as differences are found.
 */
export const ZULIP_CANONICAL_NAMES: readonly (readonly [code: string, name: string])[] = [
  ['1f642', 'smile'],
  ['1f604', 'big_smile'],
  ['1f641', 'frown'],
  ['2639', 'sad'],
  ['1f384', 'holiday_tree'],
  ['2797', 'division'],
  ['2b06', 'up'],
  ['1f947', 'gold'],
  ['1f948', 'silver'],
  ['1f949', 'bronze'],
];

/** Names emojibase knows that Zulip does not accept (Zulip calls U+1F373 `cooking` only). */
export const NOT_ZULIP_NAMES: readonly string[] = ['fried_egg'];
