import type { Term } from './narrow.js';
import { escapeHtml } from './text.js';
import type { StoredMessage } from './types.js';

/** The words a narrow searches for (its non-negated `search` terms). */
export function searchWords(terms: readonly Term[]): string[] {
  return terms.flatMap((t) => (t.kind === 'search' && !t.negated ? t.text.split(/\s+/).filter(Boolean) : []));
}

/** Wraps each search word found outside tags in Zulip's highlight span. */
function highlight(html: string, words: readonly string[]): string {
  if (words.length === 0) return html;
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.replace(pattern, '<span class="highlight">$1</span>')))
    .join('');
}

/** Zulip's get_search_fields: the rendered content and the escaped topic, with the searched words highlighted. */
export function searchFields(
  message: Pick<StoredMessage, 'renderedContent' | 'topic'>,
  words: readonly string[],
): { match_content: string; match_subject: string } {
  return {
    match_content: highlight(message.renderedContent, words),
    match_subject: highlight(escapeHtml(message.topic), words),
  };
}
