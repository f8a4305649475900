import languages from 'language-map';

interface Language {
  aliases?: readonly string[];
  interpreters?: readonly string[];
  extensions?: readonly string[];
}

let index: Map<string, string> | undefined;

// Lookup keys by precedence: language name, alias, interpreter, then file extension.
function buildIndex(): Map<string, string> {
  const byKey = new Map<string, string>();
  const all = Object.entries(languages as Record<string, Language>);
  const add = (key: string, name: string): void => {
    if (!byKey.has(key.toLowerCase())) byKey.set(key.toLowerCase(), name);
  };
  for (const [name] of all) add(name, name);
  for (const [name, lang] of all) for (const alias of lang.aliases ?? []) add(alias, name);
  for (const [name, lang] of all) for (const interpreter of lang.interpreters ?? []) add(interpreter, name);
  for (const [name, lang] of all) for (const ext of lang.extensions ?? []) add(ext.slice(1), name);
  return byKey;
}

/**
 * The display name Zulip puts in `data-code-language` for a fence's language tag: the canonical
 * language name (GitHub Linguist's) when the tag is a known name, alias or extension (`js` →
 * `JavaScript`), else the tag itself.
 */
export function canonicalLanguage(tag: string): string {
  index ??= buildIndex();
  return index.get(tag.toLowerCase()) ?? tag;
}
