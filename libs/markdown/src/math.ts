import katex from 'katex';
import { escapeAll, escapeText } from './html.js';

// Bounds keep hostile input from expanding macros or sizes without limit on the send path.
const KATEX_OPTIONS = { throwOnError: true, trust: false, maxExpand: 1000, maxSize: 100, strict: false } as const;

function render(tex: string, displayMode: boolean): string | undefined {
  try {
    return katex.renderToString(tex, { ...KATEX_OPTIONS, displayMode });
  } catch {
    return undefined;
  }
}

/** Inline `$$...$$`: KaTeX HTML, or the source in a `tex-error` span. */
export function renderInlineMath(tex: string): string {
  return render(tex, false) ?? `<span class="tex-error">${escapeText(`$$${tex}$$`)}</span>`;
}

/** A ```math block: one display formula per blank-line-separated paragraph. */
export function renderDisplayMath(text: string): string {
  return text
    .split('\n\n')
    .map(
      (paragraph) =>
        render(paragraph, true) ?? `<span class="tex-error">${escapeAll(paragraph).replace(/'/g, '&#x27;')}</span>`,
    )
    .join('\n\n');
}
