import type { StateBlock } from 'markdown-it';

// markdown-it's list rule (MIT) in Zulip's flavour: 2-space nesting, mixed bullets, `N.` markers only.

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function afterBulletMarker(state: StateBlock, line: number): number {
  const max = state.eMarks[line]!;
  const pos = state.bMarks[line]! + state.tShift[line]!;
  const marker = state.src.charCodeAt(pos);
  if (marker !== 0x2a && marker !== 0x2d && marker !== 0x2b) return -1;
  if (pos + 1 < max && !isSpace(state.src.charCodeAt(pos + 1))) return -1;
  return pos + 1;
}

function afterOrderedMarker(state: StateBlock, line: number): number {
  const start = state.bMarks[line]! + state.tShift[line]!;
  const max = state.eMarks[line]!;
  let pos = start;
  while (pos < max && pos - start < 10) {
    const ch = state.src.charCodeAt(pos);
    if (ch < 0x30 || ch > 0x39) break;
    pos++;
  }
  if (pos === start || pos >= max || state.src.charCodeAt(pos) !== 0x2e /* . */) return -1;
  pos++;
  if (pos < max && !isSpace(state.src.charCodeAt(pos))) return -1;
  return pos;
}

function markTightParagraphs(state: StateBlock, idx: number): void {
  const level = state.level + 2;
  for (let i = idx + 2, l = state.tokens.length - 2; i < l; i++) {
    if (state.tokens[i]!.level === level && state.tokens[i]!.type === 'paragraph_open') {
      state.tokens[i + 2]!.hidden = true;
      state.tokens[i]!.hidden = true;
      i += 2;
    }
  }
}

export function list(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  let nextLine = startLine;
  if (state.sCount[nextLine]! - state.blkIndent >= 4) return false;
  // Top-level lists after text were already separated by the hanging-list preprocessor.
  if (silent && state.parentType === 'paragraph' && state.listIndent < 0) return false;

  let isOrdered: boolean;
  let posAfterMarker = afterOrderedMarker(state, nextLine);
  let markerStart = state.bMarks[nextLine]! + state.tShift[nextLine]!;
  if (posAfterMarker >= 0) {
    isOrdered = true;
  } else {
    posAfterMarker = afterBulletMarker(state, nextLine);
    if (posAfterMarker < 0) return false;
    isOrdered = false;
  }
  // An empty item cannot interrupt a paragraph.
  if (silent && state.parentType === 'paragraph' && state.skipSpaces(posAfterMarker) >= state.eMarks[nextLine]!) {
    return false;
  }
  if (silent) return true;

  const listTokIdx = state.tokens.length;
  const markup = state.src.charAt(posAfterMarker - 1);
  let token = state.push(isOrdered ? 'ordered_list_open' : 'bullet_list_open', isOrdered ? 'ol' : 'ul', 1);
  if (isOrdered) {
    const first = Number(state.src.slice(markerStart, posAfterMarker - 1));
    if (first !== 1) token.attrs = [['start', String(first)]];
  }
  const listLines: [number, number] = [nextLine, 0];
  token.map = listLines;
  token.markup = markup;

  let tight = true;
  let prevEmptyEnd = false;
  const terminatorRules = state.md.block.ruler.getRules('list');
  const oldParentType = state.parentType;
  state.parentType = 'list';

  while (nextLine < endLine) {
    const max = state.eMarks[nextLine]!;
    const contentStart = state.skipSpaces(posAfterMarker);
    // Children are indented two columns past the marker, as in Zulip's Python-Markdown setup.
    const indent = state.sCount[nextLine]! + 2;

    token = state.push('list_item_open', 'li', 1);
    token.markup = markup;
    const itemLines: [number, number] = [nextLine, 0];
    token.map = itemLines;
    if (isOrdered) token.info = state.src.slice(markerStart, posAfterMarker - 1);

    const oldTight = state.tight;
    const oldTShift = state.tShift[nextLine]!;
    const oldSCount = state.sCount[nextLine]!;
    const oldListIndent = state.listIndent;
    state.listIndent = state.blkIndent;
    state.blkIndent = indent;
    state.tight = true;
    state.tShift[nextLine] = contentStart - state.bMarks[nextLine]!;
    state.sCount[nextLine] = indent;

    if (contentStart >= max && state.isEmpty(nextLine + 1)) {
      state.line = Math.min(state.line + 2, endLine);
    } else {
      state.md.block.tokenize(state, nextLine, endLine);
    }
    if (!state.tight || prevEmptyEnd) tight = false;
    prevEmptyEnd = state.line - nextLine > 1 && state.isEmpty(state.line - 1);

    state.blkIndent = state.listIndent;
    state.listIndent = oldListIndent;
    state.tShift[nextLine] = oldTShift;
    state.sCount[nextLine] = oldSCount;
    state.tight = oldTight;

    token = state.push('list_item_close', 'li', -1);
    token.markup = markup;
    nextLine = state.line;
    itemLines[1] = nextLine;

    if (nextLine >= endLine) break;
    if (state.sCount[nextLine]! < state.blkIndent) break;
    if (state.sCount[nextLine]! - state.blkIndent >= 4) break;
    let terminate = false;
    for (const rule of terminatorRules) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) break;
    markerStart = state.bMarks[nextLine]! + state.tShift[nextLine]!;
    posAfterMarker = isOrdered ? afterOrderedMarker(state, nextLine) : afterBulletMarker(state, nextLine);
    if (posAfterMarker < 0) break;
  }

  token = state.push(isOrdered ? 'ordered_list_close' : 'bullet_list_close', isOrdered ? 'ol' : 'ul', -1);
  token.markup = markup;
  listLines[1] = nextLine;
  state.line = nextLine;
  state.parentType = oldParentType;
  if (tight) markTightParagraphs(state, listTokIdx);
  return true;
}
