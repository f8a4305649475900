import { canonicalLanguage } from './code-language.js';
import { openTag } from './html.js';

// Pygments-style escaping, which also covers quotes.
function escapeCode(code: string): string {
  return code
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Zulip's code block markup (without Pygments' highlighting spans). */
export function renderCodeBlock(lang: string | undefined, text: string): string {
  const code = text.replace(/^\n+/, '').replace(/\n+$/, '');
  const attrs = {
    class: 'codehilite',
    'data-code-language': lang === undefined || lang === '' ? undefined : canonicalLanguage(lang),
  };
  return `${openTag('div', attrs)}<pre><span></span><code>${escapeCode(code)}\n</code></pre></div>`;
}
