import languages from 'linguist-languages';

interface Language {
  name: string;
  aliases?: readonly string[];
  interpreters?: readonly string[];
  extensions?: readonly string[];
}

let index: Map<string, string> | undefined;

// Lookup keys by precedence: language name, alias, interpreter, then file extension.
function buildIndex(): Map<string, string> {
  const byKey = new Map<string, string>();
  const all: readonly Language[] = Object.values(languages);
  const add = (key: string, name: string): void => {
    if (!byKey.has(key)) byKey.set(key.toLowerCase(), name);
  };
  for (const lang of all) add(lang.name.toLowerCase(), lang.name);
  for (const lang of all) for (const alias of lang.aliases ?? []) add(alias, lang.name);
  for (const lang of all) for (const interpreter of lang.interpreters ?? []) add(interpreter, lang.name);
  for (const lang of all) for (const ext of lang.extensions ?? []) add(ext.slice(1), lang.name);
  return byKey;
}

/**
 * The display name Zulip puts in `data-code-language` for a fence's language tag: the canonical
 * language name when the tag is a known name or alias (`js` → `JavaScript`), else the tag itself.
 */
export function canonicalLanguage(tag: string): string {
  index ??= buildIndex();
  return index.get(tag.toLowerCase()) ?? tag;
}
