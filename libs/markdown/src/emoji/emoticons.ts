/** Emoticons a sender can opt into translating, and the emoji code each becomes (Zulip's documented list). */
export const EMOTICONS: ReadonlyMap<string, string> = new Map([
  [':)', '1f642'],
  ['(:', '1f642'],
  [':(', '1f641'],
  ['<3', '2764'],
  [':|', '1f610'],
  [':/', '1f615'],
  [';)', '1f609'],
  [':D', '1f600'],
  [':o', '1f62e'],
  [':O', '1f62e'],
  [':p', '1f61b'],
  [':P', '1f61b'],
]);

// Characters that may surround an emoticon (Zulip's composebox "terminal symbols").
const TERMINAL = ',.;?!()\\[\\] "\'\\n\\t';
const ALTERNATIVES = [...EMOTICONS.keys()].map((e) => e.replace(/[()|/[\]\\]/g, '\\$&')).join('|');

/** Matches an emoticon that stands alone between terminal symbols. */
export function emoticonRegex(): RegExp {
  return new RegExp(`(?<![^${TERMINAL}])(?:${ALTERNATIVES})(?![^${TERMINAL}])`, 'g');
}
