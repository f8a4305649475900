import type { StateInline } from 'markdown-it';

// Characters where another inline rule may start or end: newline, ` * ~ @ # $ [ ] < &.
const TERMINATORS = new Set([0x0a, 0x60, 0x2a, 0x7e, 0x40, 0x23, 0x24, 0x5b, 0x5d, 0x3c, 0x26]);
// A bare URL may start right after one of these (Zulip's autolink lookbehind).
const URL_BOUNDARY = new Set([0x27, 0x22, 0x28, 0x2c, 0x3a, 0x3c]);

export function isUrlBoundary(code: number): boolean {
  return code <= 0x20 || URL_BOUNDARY.has(code) || (code >= 0x80 && /\s/.test(String.fromCharCode(code)));
}

/** Plain text up to the next place where a Zulip inline construct could begin. */
export function text(state: StateInline, silent: boolean): boolean {
  let pos = state.pos;
  while (pos < state.posMax) {
    const code = state.src.charCodeAt(pos);
    if (TERMINATORS.has(code)) break;
    pos++;
    if (isUrlBoundary(code)) break;
  }
  if (pos === state.pos) return false;
  if (!silent) state.pending += state.src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

/** Every newline is a line break (Zulip's nl2br); unlike CommonMark, surrounding spaces are kept. */
export function newline(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x0a) return false;
  if (!silent) state.push('softbreak', 'br', 0);
  state.pos++;
  return true;
}
