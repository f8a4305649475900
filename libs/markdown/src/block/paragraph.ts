import type { StateBlock } from 'markdown-it';

// markdown-it's paragraph rule, except that only leading whitespace is trimmed: Zulip keeps a
// paragraph's trailing spaces and the indentation of its continuation lines.
export function paragraph(state: StateBlock, startLine: number): boolean {
  const terminatorRules = state.md.block.ruler.getRules('paragraph');
  const endLine = state.lineMax;
  const oldParentType = state.parentType;
  let nextLine = startLine + 1;
  state.parentType = 'paragraph';
  for (; nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    // Deeply indented lines continue the paragraph rather than start code.
    if (state.sCount[nextLine]! - state.blkIndent > 3) continue;
    if (state.sCount[nextLine]! < 0) continue;
    let terminate = false;
    for (const rule of terminatorRules) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) break;
  }
  const content = state.getLines(startLine, nextLine, state.blkIndent, false).replace(/^\s+/, '');
  state.line = nextLine;
  const open = state.push('paragraph_open', 'p', 1);
  open.map = [startLine, state.line];
  const inline = state.push('inline', '', 0);
  inline.content = content;
  inline.map = [startLine, state.line];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  state.parentType = oldParentType;
  return true;
}
