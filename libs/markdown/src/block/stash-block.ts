import type { StateBlock } from 'markdown-it';
import { parseEnv } from '../env.js';

/** A line holding a stash placeholder becomes a `zulip_stash` token that renders the stored HTML. */
export function stashBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (state.src.charCodeAt(pos) !== 0x02) return false;
  const line = state.src.slice(pos, state.eMarks[startLine]).trimEnd();
  const entry = parseEnv(state.env).stash.lookup(line);
  if (entry === undefined) return false;
  if (silent) return true;
  const token = state.push('zulip_stash', '', 0);
  token.block = true;
  token.map = [startLine, startLine + 1];
  token.meta = { entry };
  state.line = startLine + 1;
  return true;
}
