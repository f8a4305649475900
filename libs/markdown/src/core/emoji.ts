import type { StateCore, Token } from 'markdown-it';
import { emojiByCode, emojiByName } from '../emoji/catalog.js';
import { EMOTICONS, emoticonRegex } from '../emoji/emoticons.js';
import { codeOfEmojiString, isTextPresentation, possibleEmojiRegex } from '../emoji/unicode.js';
import { SERVICE_EXTRA_EMOJI } from '../emoji/reactions.js';
import { parseEnv } from '../env.js';
import { sanitizeUrl } from '../urls.js';
import { replaceInText, type Replacement } from './text-pass.js';

const EMOJI_SYNTAX = /:([\p{L}\p{N}_+-]+):/gu;
// Zulip serves its own extra emoji from this fixed path so that exports stay portable.
const SERVICE_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/';

export type EmojiMeta = { kind: 'unicode'; code: string; text: string } | { kind: 'image'; src: string; text: string };

function emojiToken(state: StateCore, meta: EmojiMeta): Token {
  const token = new state.Token('zulip_emoji', '', 0);
  token.meta = meta;
  return token;
}

/** `:name:` syntax: realm emoji first, then `:zulip:`, then Unicode names; unknown names stay text. */
export function emojiNames(state: StateCore): void {
  const env = parseEnv(state.env);
  replaceInText(state, (text) => {
    const found: Replacement[] = [];
    EMOJI_SYNTAX.lastIndex = 0;
    for (let m = EMOJI_SYNTAX.exec(text); m !== null; m = EMOJI_SYNTAX.exec(text)) {
      const name = m[1]!;
      if (env.mode === 'extract') {
        env.refs.emojiNames.add(name);
        continue;
      }
      const custom = env.context.realmEmoji.get(name);
      const customSrc = custom?.deactivated === true ? null : sanitizeUrl(custom?.sourceUrl ?? '');
      let meta: EmojiMeta | undefined;
      if (custom !== undefined && customSrc !== null) {
        meta = { kind: 'image', src: customSrc, text: m[0] };
      } else if (SERVICE_EXTRA_EMOJI.includes(name)) {
        meta = { kind: 'image', src: `${SERVICE_EMOJI_URL}${name}.png`, text: m[0] };
      } else {
        const emoji = emojiByName(name);
        if (emoji !== undefined) meta = { kind: 'unicode', code: emoji.code, text: m[0] };
      }
      if (meta !== undefined)
        found.push({ start: m.index, end: EMOJI_SYNTAX.lastIndex, token: emojiToken(state, meta) });
    }
    return found;
  });
}

/** `:)` and friends, for senders who turned on emoticon translation. */
export function emoticons(state: StateCore): void {
  const env = parseEnv(state.env);
  if (env.mode === 'extract' || !env.context.translateEmoticons) return;
  const re = emoticonRegex();
  replaceInText(state, (text, { before, after }) => {
    // Surrounding elements count as non-terminal characters for the emoticon's boundaries.
    const padded = before + text + after;
    const found: Replacement[] = [];
    re.lastIndex = 0;
    for (let m = re.exec(padded); m !== null; m = re.exec(padded)) {
      const start = m.index - before.length;
      if (start < 0 || start + m[0].length > text.length) continue;
      const emoji = emojiByCode(EMOTICONS.get(m[0])!);
      if (emoji === undefined) continue;
      const token = emojiToken(state, { kind: 'unicode', code: emoji.code, text: `:${emoji.name}:` });
      found.push({ start, end: start + m[0].length, token });
    }
    return found;
  });
}

/** Literal emoji characters become Zulip's emoji spans when the emoji is in the catalog. */
export function unicodeEmoji(state: StateCore): void {
  if (parseEnv(state.env).mode === 'extract') return;
  const re = possibleEmojiRegex();
  replaceInText(state, (text) => {
    const found: Replacement[] = [];
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (isTextPresentation(m[0])) continue;
      const emoji = emojiByCode(codeOfEmojiString(m[0]));
      if (emoji === undefined) continue;
      const token = emojiToken(state, { kind: 'unicode', code: emoji.code, text: `:${emoji.name}:` });
      found.push({ start: m.index, end: m.index + m[0].length, token });
    }
    return found;
  });
}
