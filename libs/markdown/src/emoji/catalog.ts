import data from 'emojibase-data/en/data.json';
import cldrNames from 'emojibase-data/en/shortcodes/cldr.json';
import emojibaseNames from 'emojibase-data/en/shortcodes/emojibase.json';
import githubNames from 'emojibase-data/en/shortcodes/github.json';
import joypixelsNames from 'emojibase-data/en/shortcodes/joypixels.json';
import { NOT_ZULIP_NAMES, ZULIP_CANONICAL_NAMES } from './zulip-names.js';

/** A built-in (Unicode) emoji: canonical name, Zulip-style code and the other names it answers to. */
export interface EmojiInfo {
  name: string;
  /** Dash-separated lower-case hex code points without variation selectors, e.g. `1f44d`. */
  code: string;
  aliases: string[];
}

type ShortcodeSet = Readonly<Record<string, string | string[]>>;

// Zulip's emoji set is emoji-datasource 15.0 (Unicode Emoji 15.0); newer emoji would be names its clients cannot draw.
const MAX_EMOJI_VERSION = 15;
// emojibase groups: 2 is "component" (skin tones, hair); ungrouped entries are lone regional indicators.
const COMPONENT_GROUP = 2;
// Names must be writable as `:name:` in Zulip's emoji syntax.
const NAME_RE = /^[\w+-]+$/;
// The emojibase preset comes first: its names are the short, CLDR-based ones closest to Zulip's.
const ALIAS_SOURCES: readonly ShortcodeSet[] = [emojibaseNames, cldrNames, githubNames, joypixelsNames];

/** Drops variation selectors and formats code points the way Zulip stores `emoji_code`. */
export function codeFromHex(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

function namesOf(set: ShortcodeSet, hexcode: string): string[] {
  const names = set[hexcode];
  if (names === undefined) return [];
  return (typeof names === 'string' ? [names] : names).filter((name) => NAME_RE.test(name));
}

interface Catalog {
  byName: Map<string, EmojiInfo>;
  byCode: Map<string, EmojiInfo>;
}

function buildCatalog(): Catalog {
  const byName = new Map<string, EmojiInfo>();
  const byCode = new Map<string, EmojiInfo>();
  const entries = data.filter(
    (e) => e.group !== undefined && e.group !== COMPONENT_GROUP && e.version <= MAX_EMOJI_VERSION,
  );
  // Canonical names first so that no alias can take another emoji's canonical name.
  for (const entry of entries) {
    const [name] = namesOf(emojibaseNames, entry.hexcode);
    if (name === undefined || byName.has(name)) continue;
    const info: EmojiInfo = { name, code: codeFromHex(entry.hexcode), aliases: [] };
    byName.set(name, info);
    byCode.set(info.code, info);
  }
  for (const source of ALIAS_SOURCES) {
    for (const entry of entries) {
      const info = byCode.get(codeFromHex(entry.hexcode));
      if (info === undefined) continue;
      for (const alias of namesOf(source, entry.hexcode)) {
        if (byName.has(alias)) continue;
        byName.set(alias, info);
        info.aliases.push(alias);
      }
    }
  }
  applyZulipNames(byName, byCode);
  return { byName, byCode };
}

/** Gives the emoji Zulip's canonical names where they differ (see zulip-names.ts), keeping old names as aliases. */
function applyZulipNames(byName: Map<string, EmojiInfo>, byCode: Map<string, EmojiInfo>): void {
  const forget = (name: string) => {
    const holder = byName.get(name);
    if (holder === undefined) return;
    holder.aliases = holder.aliases.filter((alias) => alias !== name);
    byName.delete(name);
  };
  for (const name of NOT_ZULIP_NAMES) forget(name);
  for (const [code, name] of ZULIP_CANONICAL_NAMES) {
    const info = byCode.get(code);
    if (info === undefined || info.name === name) continue;
    forget(name);
    info.aliases = [info.name, ...info.aliases];
    info.name = name;
    byName.set(name, info);
  }
}

let catalog: Catalog | undefined;

// Built on first use: about 1,900 emoji and 4,000 names, a few milliseconds.
function getCatalog(): Catalog {
  catalog ??= buildCatalog();
  return catalog;
}

/** The built-in emoji with this canonical name or alias. */
export function emojiByName(name: string): EmojiInfo | undefined {
  return getCatalog().byName.get(name);
}

/** The built-in emoji with this code (`1f44d`, `1f937-200d-2640`); variation selectors are ignored. */
export function emojiByCode(code: string): EmojiInfo | undefined {
  return getCatalog().byCode.get(codeFromHex(code));
}

/** All built-in emoji, in emojibase order. */
export function allEmoji(): EmojiInfo[] {
  return [...getCatalog().byCode.values()];
}
