// Zulip's serializer leaves `&` alone when it already starts an entity, so `&amp;` is not escaped twice.
const LONE_AMPERSAND = /&(?!(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);)/gi;

/** Escapes text content the way Zulip's HTML serializer does. */
export function escapeText(text: string): string {
  return text.replace(LONE_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value the way Zulip's HTML serializer does. */
export function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}

/** Escapes `&`, `<` and `>` without exception, for code spans. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes every special character, for text that must never be read as markup (code, KaTeX errors). */
export function escapeAll(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An opening tag with attributes in lexical order, as Zulip emits them. */
export function openTag(name: string, attrs: Readonly<Record<string, string | undefined>> = {}): string {
  const parts = Object.keys(attrs)
    .sort()
    .flatMap((key) => {
      const value = attrs[key];
      return value === undefined ? [] : [` ${key}="${escapeAttr(value)}"`];
    });
  return `<${name}${parts.join('')}>`;
}
