import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';

// `$$tex$$` on one line, not touching word characters or other dollars, not starting with `_`.
const INLINE_TEX = /(?<![\p{L}\p{N}_$])\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)(?![\p{L}\p{N}_])/uy;

export function matchInlineMath(src: string, pos: number): RegExpExecArray | null {
  if (src.charCodeAt(pos) !== 0x24 /* $ */) return null;
  INLINE_TEX.lastIndex = pos;
  return INLINE_TEX.exec(src);
}

export function inlineMath(state: StateInline, silent: boolean): boolean {
  const m = matchInlineMath(state.src, state.pos);
  if (m === null || state.pos + m[0].length > state.posMax) return false;
  if (!silent && parseEnv(state.env).mode === 'render') {
    state.push('zulip_math', 'span', 0).content = m[1]!;
  }
  state.pos += m[0].length;
  return true;
}
