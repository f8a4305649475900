import type { StateInline } from 'markdown-it';

/** Where the code span opened at `pos` with a run of `len` backticks ends, or -1. */
function closingRun(src: string, from: number, max: number, len: number): number {
  for (let i = from; i < max; i++) {
    const code = src.charCodeAt(i);
    if (code === 0x0a) return -1;
    if (code !== 0x60) continue;
    let run = 0;
    while (i + run < max && src.charCodeAt(i + run) === 0x60) run++;
    if (run === len) return i;
    i += run - 1;
  }
  return -1;
}

interface Span {
  contentStart: number;
  contentEnd: number;
  end: number;
}

/** The code span opening at `pos`, if any. */
function findCodeSpan(src: string, pos: number, max: number): Span | undefined {
  if (src.charCodeAt(pos) !== 0x60) return undefined;
  if (pos > 0 && src.charCodeAt(pos - 1) === 0x5c /* \ */) return undefined;
  let run = 0;
  while (pos + run < max && src.charCodeAt(pos + run) === 0x60) run++;
  // Like a backtracking regex, a long opening run may also open with fewer backticks.
  for (let len = run; len >= 1; len--) {
    const contentStart = pos + len;
    if (contentStart >= max) continue;
    const close = closingRun(src, contentStart + 1, max, len);
    if (close >= 0) return { contentStart, contentEnd: close, end: close + len };
  }
  return undefined;
}

/** End of the code span opening at `pos`, or -1. */
export function matchCodeSpan(src: string, pos: number, max: number): number {
  return findCodeSpan(src, pos, max)?.end ?? -1;
}

/**
 * Zulip code spans: a backtick run not preceded by `\`, closed by a run of the same length on the
 * same line; the content is kept verbatim (no space stripping, unlike CommonMark).
 */
export function codeSpan(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== 0x60) return false;
  const span = findCodeSpan(src, pos, posMax);
  if (span === undefined) {
    // An unmatched run is text as a whole, so its tail cannot open a span of its own.
    let run = 0;
    while (pos + run < posMax && src.charCodeAt(pos + run) === 0x60) run++;
    if (!silent) state.pending += src.slice(pos, pos + run);
    state.pos = pos + run;
    return true;
  }
  if (!silent) {
    const token = state.push('code_inline', 'code', 0);
    token.content = src.slice(span.contentStart, span.contentEnd);
  }
  state.pos = span.end;
  return true;
}
