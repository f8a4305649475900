import type { StateBlock } from 'markdown-it';

// Zulip quotes run to the next blank line, lazy lines included; only-empty `>` lines are no quote.

function markerPos(state: StateBlock, line: number): number {
  if (state.sCount[line]! - state.blkIndent >= 4) return -1;
  const pos = state.bMarks[line]! + state.tShift[line]!;
  return state.src.charCodeAt(pos) === 0x3e /* > */ ? pos : -1;
}

function isEmptyQuoteLine(state: StateBlock, line: number): boolean {
  const pos = markerPos(state, line);
  return pos >= 0 && state.src.slice(pos + 1, state.eMarks[line]).trim() === '';
}

export function blockquote(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (markerPos(state, startLine) < 0) return false;
  let end = startLine + 1;
  while (end < endLine && !state.isEmpty(end) && state.sCount[end]! >= state.blkIndent) end++;
  let hasContent = false;
  for (let line = startLine; line < end && !hasContent; line++) hasContent = !isEmptyQuoteLine(state, line);
  if (!hasContent) return false;
  if (silent) return true;

  const saved = { bMarks: [] as number[], tShift: [] as number[], sCount: [] as number[], bsCount: [] as number[] };
  for (let line = startLine; line < end; line++) {
    saved.bMarks.push(state.bMarks[line]!);
    saved.tShift.push(state.tShift[line]!);
    saved.sCount.push(state.sCount[line]!);
    saved.bsCount.push(state.bsCount[line]!);
    const marker = markerPos(state, line);
    if (marker < 0) continue;
    // Strip `>` and one optional space; the rest of the indentation stays meaningful.
    let pos = marker + 1;
    if (state.src.charCodeAt(pos) === 0x20) pos++;
    let spaces = 0;
    while (state.src.charCodeAt(pos + spaces) === 0x20) spaces++;
    state.bMarks[line] = pos;
    state.tShift[line] = spaces;
    state.sCount[line] = spaces;
    state.bsCount[line] = 0;
  }

  const oldParentType = state.parentType;
  const oldBlkIndent = state.blkIndent;
  const oldLineMax = state.lineMax;
  state.parentType = 'blockquote';
  state.blkIndent = 0;
  state.lineMax = end;
  const open = state.push('blockquote_open', 'blockquote', 1);
  open.markup = '>';
  open.map = [startLine, end];
  state.md.block.tokenize(state, startLine, end);
  const close = state.push('blockquote_close', 'blockquote', -1);
  close.markup = '>';
  state.lineMax = oldLineMax;
  state.parentType = oldParentType;
  state.blkIndent = oldBlkIndent;
  for (let i = 0; i < saved.bMarks.length; i++) {
    const line = startLine + i;
    state.bMarks[line] = saved.bMarks[i]!;
    state.tShift[line] = saved.tShift[i]!;
    state.sCount[line] = saved.sCount[i]!;
    state.bsCount[line] = saved.bsCount[i]!;
  }
  state.line = end;
  return true;
}
